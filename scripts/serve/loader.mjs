// The loader that runs a page's scripts after `load`, and the tag parser that finds those scripts:
// shared by the build step that rewrites prerendered pages (scripts/build/defer-scripts.ts) and the
// server's streaming rewrite of pages rendered per request (./deferred-html.mjs), so both emit the
// same loader and read the same markup the same way (docs/performance.md).

/** URL folder of the files written for the loader (payloads, the visit beacon) under `/_next/static/`. */
export const DEFERRED_FOLDER = 'deferred';

/** The manifest `npm run build` writes into the build folder: `{ beacon: "/_next/static/…" }`. */
export const LOADER_MANIFEST_FILE = 'loader-manifest.json';

/**
 * The loader: the only inline script of a prerendered page. Reads the script URLs from its own
 * `data-l` attribute (space-separated, in execution order) and those to load as `nomodule` from
 * `data-n`, and appends them once the page has loaded. Nothing on the public pages needs it
 * earlier: the menus are native `<details>`, the tabs are links and the forms post without
 * JavaScript, so a tap before hydration already does what it says.
 */
export const LOADER =
  '(function(s){var d=s.dataset;' +
  'function go(){var n=(d.n||"").split(" ");' +
  'd.l.split(" ").forEach(function(u){var e=document.createElement("script");e.src=u;' +
  'e.async=false;if(n.indexOf(u)>=0)e.noModule=true;document.body.appendChild(e)})}' +
  'if(document.readyState==="complete")setTimeout(go);' +
  'else addEventListener("load",function(){setTimeout(go)})})(document.currentScript)';

/** Script `type`s a browser executes (absent, empty, a JavaScript MIME type or `module`). */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

/**
 * The value of attribute `name` in a tag's attribute text, unescaped as written (`undefined` when
 * absent, `''` for a bare attribute).
 * @param {string} attributes
 * @param {string} name
 * @returns {string | undefined}
 */
export function attribute(attributes, name) {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(
    attributes,
  );
  if (match) return match[1] ?? match[2] ?? match[3] ?? '';
  return new RegExp(`(^|\\s)${name}(?=\\s|/|$)`, 'i').test(attributes) ? '' : undefined;
}

/** @param {string} value */
function unescapeAttribute(value) {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

/** @param {string} value */
function escapeAttribute(value) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * What a `<script>` is, from its opening tag's attributes: a data block the browser never runs
 * (`data`, e.g. JSON-LD), an inline classic script (`inline`), the loader itself (`loader`), a
 * Next.js file under `/_next/static/` (`file`, with its URL and whether it is `nomodule`), or a
 * shape the loader does not know (`module`, or `foreign`: a source elsewhere).
 * @param {string} attributes
 * @returns {import('./loader.d.mts').ScriptKind}
 */
export function scriptKind(attributes) {
  const type = (attribute(attributes, 'type') ?? '').trim();
  if (!EXECUTABLE_TYPE.test(type)) return { kind: 'data' };
  if (type.toLowerCase() === 'module') return { kind: 'module' };
  const src = attribute(attributes, 'src');
  if (src === undefined)
    return attribute(attributes, 'data-l') === undefined ? { kind: 'inline' } : { kind: 'loader' };
  const url = unescapeAttribute(src);
  if (!url.startsWith('/_next/static/') || /\s/.test(url)) return { kind: 'foreign', url };
  return { kind: 'file', url, noModule: attribute(attributes, 'nomodule') !== undefined };
}

/**
 * Whether a `<link>` tag is a script preload hint (`as="script"`).
 * @param {string} tag
 */
export function isScriptPreload(tag) {
  return /^<link\b(?=[^>]*\bas=["']?script\b)/i.test(tag);
}

/**
 * The loader's tag: `scripts` to run in order after `load` (the visit beacon first when given),
 * `noModule` those of them to load as `nomodule`, `nonce` the page's CSP nonce (pages rendered per
 * request; a prerendered page's policy names the loader's hash instead).
 * @param {{ scripts: readonly string[], noModule?: readonly string[], nonce?: string }} options
 */
export function loaderTag({ scripts, noModule = [], nonce }) {
  return (
    `<script data-l="${escapeAttribute(scripts.join(' '))}"` +
    (noModule.length ? ` data-n="${escapeAttribute(noModule.join(' '))}"` : '') +
    (nonce ? ` nonce="${escapeAttribute(nonce)}"` : '') +
    `>${LOADER}</script>`
  );
}

/** Elements whose content is text to the HTML parser: no tag inside them is looked at. */
const RAW_TEXT = new Set(['script', 'style']);

/**
 * An HTML tag scanner fed in pieces (a whole page at once, or a stream split anywhere): text passes
 * at once; what could be a tag it looks at waits for its end. It hands over every `<script>`
 * element whole (opening tag, text, closing tag), every `<link>` tag, and each `</body>`; what a
 * handler returns takes the element's place (for `bodyEnd`, is inserted before `</body>`).
 * Comments and `<style>` pass unexamined. After `stop()`, everything passes unchanged.
 * @param {import('./loader.d.mts').ScanHandlers} handlers
 * @returns {import('./loader.d.mts').HtmlScanner}
 */
export function createHtmlScanner(handlers) {
  let buffer = '';
  let stopped = false;

  /** @param {boolean} final */
  function scan(final) {
    let out = '';
    while (buffer) {
      if (stopped) {
        out += buffer;
        buffer = '';
        break;
      }
      const lt = buffer.indexOf('<');
      if (lt < 0) {
        out += buffer;
        buffer = '';
        break;
      }
      out += buffer.slice(0, lt);
      buffer = buffer.slice(lt);
      if (buffer.startsWith('<!--')) {
        const end = buffer.indexOf('-->', 4);
        if (end < 0 && !final) break;
        const length = end < 0 ? buffer.length : end + 3;
        out += buffer.slice(0, length);
        buffer = buffer.slice(length);
        continue;
      }
      const name = /^<(\/?)([a-z][a-z0-9-]*)/i.exec(buffer);
      if (!name || name[0].length === buffer.length) {
        if (!final && (buffer.length < 4 || name)) break; // `<`, `<!-` or a name cut short
        out += buffer[0];
        buffer = buffer.slice(1);
        continue;
      }
      const [opening, closing, rawName = ''] = name;
      const tag = rawName.toLowerCase();
      const next = buffer[opening.length] ?? '';
      const known =
        /[\s/>]/.test(next) && (closing ? tag === 'body' : RAW_TEXT.has(tag) || tag === 'link');
      if (!known) {
        out += opening;
        buffer = buffer.slice(opening.length);
        continue;
      }
      if (closing) {
        out += handlers.bodyEnd() + opening;
        buffer = buffer.slice(opening.length);
        continue;
      }
      const gt = buffer.indexOf('>', opening.length);
      if (gt < 0) {
        if (!final) break;
        out += buffer;
        buffer = '';
        break;
      }
      if (tag === 'link') {
        out += handlers.link(buffer.slice(0, gt + 1));
        buffer = buffer.slice(gt + 1);
        continue;
      }
      const close = new RegExp(`</${tag}\\s*>`, 'i').exec(buffer.slice(gt + 1));
      if (!close) {
        if (!final) break;
        out += buffer;
        buffer = '';
        break;
      }
      const end = gt + 1 + close.index + close[0].length;
      const whole = buffer.slice(0, end);
      out +=
        tag === 'script'
          ? handlers.script(
              buffer.slice(opening.length, gt),
              buffer.slice(gt + 1, gt + 1 + close.index),
              whole,
            )
          : whole;
      buffer = buffer.slice(end);
    }
    return out;
  }

  return {
    push(text) {
      buffer += text;
      return scan(false);
    },
    end() {
      return scan(true);
    },
    stop() {
      stopped = true;
    },
  };
}
