// The loader that runs a page's scripts after `load` and the first paint, and on the first
// interaction, and the tag parser that finds those scripts:
// shared by the build step that rewrites prerendered pages (scripts/build/defer-scripts.ts) and the
// seam's rewrite of pages rendered per request (src/seam/page-rewrite.ts), so both emit the same
// loader and read the same markup the same way (docs/performance.md). Its constants are read by
// the client code that cooperates with it (src/lib/hydrate-at-load.ts, the contact form).

/** URL folder of the files written for the loader (payloads, the visit beacon) under `/_next/static/`. */
export const DEFERRED_FOLDER = 'deferred';

/**
 * The manifest `npm run build` writes into the build folder: `{ beacon, page }`, the URLs under
 * `/_next/static/` of the small scripts every public page runs at once after `load`.
 */
export const LOADER_MANIFEST_FILE = 'loader-manifest.json';

/**
 * What starts the framework: the first press, touch, key or focus on the page (scrolling, wheel
 * and pointer moves are reading, and start nothing).
 */
export const INTERACTIONS: readonly string[] = ['pointerdown', 'touchstart', 'keydown', 'focusin'];

/**
 * The global in which the loader keeps the target of the interaction that started the framework,
 * so that a component that waits for a first interaction (src/app/contact-us/first-interaction.ts)
 * knows of one that came before it hydrated.
 */
export const STARTED_BY = '__startedBy';

/**
 * The attribute of an element that makes the loader start the framework at `load` on its page, with
 * no interaction awaited (src/lib/hydrate-at-load.ts): the 404 page's, whose breadcrumb trail only
 * the browser can draw (the prerendered page does not know the URL asked for), and a demo's time in
 * the visitor's own zone on the booking, confirmation and manage pages.
 */
export const HYDRATE_AT_LOAD_ATTRIBUTE = 'data-hydrate-at-load';

/** The loader manifest: URLs of the visit beacon and the page script. */
export type LoaderManifest = { beacon?: string; page?: string };

/**
 * The scripts the loader runs at once after `load`, in order, from the loader manifest: the visit
 * beacon (first, so that it sees every client-side navigation) and the page script.
 */
export function atLoadScripts(manifest: LoaderManifest): string[] {
  return [manifest.beacon, manifest.page].filter(
    (url): url is string => typeof url === 'string' && url !== '',
  );
}

/**
 * How long after `load` the loader waits for the page's first contentful paint (ms) before it
 * starts the page's scripts anyway: the paint's timing entry, which it waits for, may never come
 * (a tab opened in the background, a browser without Paint Timing). Starting them after the first
 * paint keeps them out of what that paint waits for; Lighthouse's simulation bills a request made
 * before the paint to it (docs/performance.md).
 */
export const FIRST_PAINT_WAIT_MS = 1000;

/**
 * The loader: the only inline script of a prerendered page. Once the page has loaded and painted
 * its first content (or {@link FIRST_PAINT_WAIT_MS} after `load` without that paint's timing
 * entry), it appends the scripts of its `data-a` attribute (space-separated, in order: the visit
 * beacon and the page script). The framework's scripts, in `data-l` (in execution order; those in
 * `data-n` as `nomodule`), it appends on the visitor's first interaction ({@link INTERACTIONS},
 * listened to in the capture phase, passive), or at that same moment after the first paint when
 * one came before, or when the focus is already in the page (an `autofocus` field, e.g. a form
 * sent back with its errors), or when an element of the page has the
 * {@link HYDRATE_AT_LOAD_ATTRIBUTE} attribute (the 404 page, a demo's time). Nothing on the public
 * pages needs the framework before: the menus are native `<details>`, the tabs are links and the
 * forms post without JavaScript, so the interaction that starts it already does what it says, and a
 * visitor who only reads never pays for hydration. The target of that interaction is kept in
 * `window[STARTED_BY]`. With a `data-now` attribute (the console's pages) the framework's scripts
 * follow the others, with no interaction awaited.
 */
export const LOADER =
  '(function(s){var d=s.dataset,w=window,o=document,t=' +
  JSON.stringify(INTERACTIONS.join(' ')) +
  '.split(" "),l=0,f="now"in d?1:0,g=0;' +
  'function add(a,n){(a||"").split(" ").forEach(function(u){if(!u)return;' +
  'var e=o.createElement("script");e.src=u;e.async=false;if(n.indexOf(u)>=0)e.noModule=true;' +
  'o.body.appendChild(e)})}' +
  'function go(){if(g||!l||!f)return;g=1;t.forEach(function(x){w.removeEventListener(x,on,true)});' +
  'add(d.l,(d.n||"").split(" "))}' +
  'function on(e){if(!f){f=1;w.' +
  STARTED_BY +
  '=e.target}go()}' +
  't.forEach(function(x){w.addEventListener(x,on,{capture:true,passive:true})});' +
  'function ready(){l=1;add(d.a,[]);var a=o.activeElement;' +
  'if(!f&&a&&a!==o.body&&a!==o.documentElement){f=1;w.' +
  STARTED_BY +
  '=a}if(o.querySelector("[' +
  HYDRATE_AT_LOAD_ATTRIBUTE +
  ']"))f=1;go()}' +
  'function painted(){var k=0;function run(){if(!k){k=1;setTimeout(ready)}}setTimeout(run,' +
  FIRST_PAINT_WAIT_MS +
  ');' +
  'try{new PerformanceObserver(function(x,q){' +
  'if(x.getEntriesByName("first-contentful-paint").length){q.disconnect();run()}})' +
  '.observe({type:"paint",buffered:true})}catch(e){}}' +
  'if(o.readyState==="complete")painted();' +
  'else w.addEventListener("load",painted,{once:true})})(document.currentScript)';

/** Script `type`s a browser executes (absent, empty, a JavaScript MIME type or `module`). */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

/**
 * The value of attribute `name` in a tag's attribute text, unescaped as written (`undefined` when
 * absent, `''` for a bare attribute).
 */
export function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(
    attributes,
  );
  if (match) return match[1] ?? match[2] ?? match[3] ?? '';
  return new RegExp(`(^|\\s)${name}(?=\\s|/|$)`, 'i').test(attributes) ? '' : undefined;
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

/** What a `<script>` is: see {@link scriptKind}. */
export type ScriptKind =
  | { kind: 'data' }
  | { kind: 'inline' }
  | { kind: 'loader' }
  | { kind: 'module' }
  | { kind: 'foreign'; url: string }
  | { kind: 'file'; url: string; noModule: boolean };

/**
 * What a `<script>` is, from its opening tag's attributes: a data block the browser never runs
 * (`data`, e.g. JSON-LD), an inline classic script (`inline`), the loader itself (`loader`), a
 * Next.js file under `/_next/static/` (`file`, with its URL and whether it is `nomodule`), or a
 * shape the loader does not know (`module`, or `foreign`: a source elsewhere).
 */
export function scriptKind(attributes: string): ScriptKind {
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
 */
export function isScriptPreload(tag: string): boolean {
  return /^<link\b(?=[^>]*\bas=["']?script\b)/i.test(tag);
}

/**
 * The loader's tag: `atLoad` the scripts to run at once after `load` (the visit beacon, the page
 * script), `scripts` the framework's, to run in order on the first interaction, `noModule` those of
 * them to load as `nomodule`, `nonce` the page's CSP nonce (pages rendered per request; a
 * prerendered page's policy names the loader's hash instead), `now` to run the framework's
 * scripts at `load` too (the console's pages, which are not made to work without JavaScript).
 */
export function loaderTag({
  scripts,
  noModule = [],
  atLoad = [],
  nonce,
  now = false,
}: {
  scripts: readonly string[];
  noModule?: readonly string[];
  atLoad?: readonly string[];
  nonce?: string;
  now?: boolean;
}): string {
  return (
    '<script' +
    (atLoad.length ? ` data-a="${escapeAttribute(atLoad.join(' '))}"` : '') +
    ` data-l="${escapeAttribute(scripts.join(' '))}"` +
    (noModule.length ? ` data-n="${escapeAttribute(noModule.join(' '))}"` : '') +
    (now ? ' data-now=""' : '') +
    (nonce ? ` nonce="${escapeAttribute(nonce)}"` : '') +
    `>${LOADER}</script>`
  );
}

/** What {@link createHtmlScanner} hands over. */
export type ScanHandlers = {
  /** A whole `<script>` element: its opening tag's attributes, its text, and all of it. */
  script(attributes: string, body: string, whole: string): string;
  /** A `<link>` tag, whole. */
  link(tag: string): string;
  /** Text to insert before a `</body>`. */
  bodyEnd(): string;
};

/** A scanner fed in pieces. */
export type HtmlScanner = {
  /** Feeds the next piece; returns what can be sent now. */
  push(text: string): string;
  /** The end of the document: returns the rest. */
  end(): string;
  /** From now on, everything passes unchanged. */
  stop(): void;
};

/** Elements whose content is text to the HTML parser: no tag inside them is looked at. */
const RAW_TEXT = new Set(['script', 'style']);

/**
 * An HTML tag scanner fed in pieces (a whole page at once, or a stream split anywhere): text passes
 * at once; what could be a tag it looks at waits for its end. It hands over every `<script>`
 * element whole (opening tag, text, closing tag), every `<link>` tag, and each `</body>`; what a
 * handler returns takes the element's place (for `bodyEnd`, is inserted before `</body>`).
 * Comments and `<style>` pass unexamined. After `stop()`, everything passes unchanged.
 */
export function createHtmlScanner(handlers: ScanHandlers): HtmlScanner {
  let buffer = '';
  let stopped = false;

  function scan(final: boolean): string {
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
