// Build step (scripts/build/after-build.mts): rewrites each prerendered HTML page so that no script
// runs, or is even requested, before the page has loaded (docs/performance.md).
// - Next.js's inline scripts (the Turbopack bootstrap and the React Server Components payload,
//   `self.__next_f.push(…)`) move, in document order, into one per-page file under
//   `/_next/static/deferred/`, named by the hash of its content (so it is immutable like any chunk).
// - Its `<script src>` tags and `<link rel="preload" as="script">` hints are removed.
// - One small loader, the same on every page, takes their place at the end of the body: on `load`
//   it appends the payload file and then the chunks as ordered scripts (`async = false`), so the
//   payload is in `self.__next_f` before Next.js's client starts, as it is in the original page.
// Every page then carries a single inline script, so its Content-Security-Policy holds one hash.
// The step refuses (throws) when a page does not have the shape it knows, so that a Next.js
// upgrade that changes the markup fails the build and its tests instead of shipping a page that
// never hydrates.
import { createHash } from 'node:crypto';

/** URL folder of the per-page payload files (inside `/_next/static/`, served like any chunk). */
export const DEFERRED_FOLDER = 'deferred';

/**
 * The loader: the only inline script of a prerendered page. Reads the script URLs from its own
 * `data-l` attribute (space-separated, in execution order) and those to load as `nomodule` from
 * `data-n`, and appends them once the page has loaded. A click on a JavaScript-only button
 * (`type="button"`, such as the mobile menu's toggle) before React has hydrated it is held and
 * replayed once it has (for at most 20 s), so an early tap is not lost.
 */
export const LOADER =
  '(function(s){var d=s.dataset,q=[],t=0;' +
  'function live(b){return Object.keys(b).some(function(k){return k.indexOf("__react")===0})}' +
  'function hold(e){var b=e.target&&e.target.closest&&e.target.closest(\'button[type="button"]\');' +
  'if(b&&!live(b)){e.preventDefault();e.stopImmediatePropagation();if(q.indexOf(b)<0)q.push(b)}}' +
  'document.addEventListener("click",hold,true);' +
  'function replay(){if(q.length&&!live(q[0])&&++t<400)return setTimeout(replay,50);' +
  'document.removeEventListener("click",hold,true);q.forEach(function(b){if(live(b))b.click()})}' +
  'function go(){var n=(d.n||"").split(" ");' +
  'd.l.split(" ").forEach(function(u){var e=document.createElement("script");e.src=u;' +
  'e.async=false;if(n.indexOf(u)>=0)e.noModule=true;document.body.appendChild(e)});' +
  'var w=setInterval(function(){if(live(document.body)||++t>400){clearInterval(w);t=0;replay()}},50)}' +
  'if(document.readyState==="complete")setTimeout(go);' +
  'else addEventListener("load",function(){setTimeout(go)})})(document.currentScript)';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_PRELOAD = /<link\b(?=[^>]*\bas="script")[^>]*>/gi;
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

/** The rewritten page and the payload file it now loads. */
export type DeferredPage = {
  html: string;
  /** The payload file: its URL path and its text (the page's former inline scripts). */
  payload: { path: string; text: string };
};

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(
    attributes,
  );
  return match ? (match[1] ?? match[2] ?? match[3] ?? '') : undefined;
}

function unescapeAttribute(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * Rewrites one prerendered page (see the file's comment).
 * @param html the page as `next build` wrote it
 * @throws Error when the page has no Next.js payload (`self.__next_f`), no script file, a
 *   `<script src>` outside `/_next/static/`, an inline module script, or no `</body>`
 */
export function deferScripts(html: string): DeferredPage {
  const sources: string[] = [];
  const noModule: string[] = [];
  const inline: string[] = [];
  let rewritten = html.replace(SCRIPT, (whole, attributes: string, body: string) => {
    const type = (attribute(attributes, 'type') ?? '').trim();
    if (!EXECUTABLE_TYPE.test(type)) return whole; // a data block such as JSON-LD stays
    if (type.toLowerCase() === 'module')
      throw new Error('defer-scripts: a module script; the loader only knows classic scripts');
    const src = attribute(attributes, 'src');
    if (src === undefined) {
      inline.push(body);
      return '';
    }
    const url = unescapeAttribute(src);
    if (!url.startsWith('/_next/static/') || /\s/.test(url))
      throw new Error(`defer-scripts: unexpected script source ${url}`);
    if (!sources.includes(url)) sources.push(url);
    if (attribute(attributes, 'nomodule') !== undefined) noModule.push(url);
    return '';
  });
  rewritten = rewritten.replace(SCRIPT_PRELOAD, '');
  if (!inline.some((body) => body.includes('self.__next_f')))
    throw new Error('defer-scripts: no Next.js payload (self.__next_f) in the page');
  if (sources.length === noModule.length)
    throw new Error('defer-scripts: no Next.js script file in the page');
  const text = inline.join('\n;\n') + '\n';
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  const payload = { path: `/_next/static/${DEFERRED_FOLDER}/${hash}.js`, text };
  const list = [payload.path, ...sources].join(' ');
  const loader =
    `<script data-l="${escapeAttribute(list)}"` +
    (noModule.length ? ` data-n="${escapeAttribute(noModule.join(' '))}"` : '') +
    `>${LOADER}</script>`;
  const end = rewritten.lastIndexOf('</body>');
  if (end < 0) throw new Error('defer-scripts: no </body> in the page');
  return { html: rewritten.slice(0, end) + loader + rewritten.slice(end), payload };
}
