// Build step (scripts/build/after-build.mts): rewrites each prerendered HTML page so that no script
// runs, or is even requested, before the page has loaded (docs/performance.md).
// - Next.js's inline scripts (the Turbopack bootstrap and the React Server Components payload,
//   `self.__next_f.push(…)`) move, in document order, into one per-page file under
//   `/_next/static/deferred/`, named by the hash of its content (so it is immutable like any chunk).
// - Its `<script src>` tags and `<link rel="preload" as="script">` hints are removed.
// - One small loader, the same on every page, takes their place at the end of the body: on `load`
//   it appends the visit beacon and the page script; on the visitor's first interaction, the
//   payload file and then the chunks as ordered scripts (`async = false`), so the payload is in
//   `self.__next_f` before Next.js's client starts, as it is in the original page.
// Every page then carries a single inline script, so its Content-Security-Policy holds one hash.
// The step refuses (throws) when a page does not have the shape it knows, so that a Next.js
// upgrade that changes the markup fails the build and its tests instead of shipping a page that
// never hydrates. The loader and the tag parser are shared with the server's rewrite of pages
// rendered per request (src/lib/page-loader.ts).
import { createHash } from 'node:crypto';
import {
  createHtmlScanner,
  DEFERRED_FOLDER,
  isScriptPreload,
  LOADER,
  loaderTag,
  scriptKind,
} from '../../src/lib/page-loader';

export { DEFERRED_FOLDER, LOADER };

/** The rewritten page and the payload file it now loads. */
export type DeferredPage = {
  html: string;
  /** The payload file: its URL path and its text (the page's former inline scripts). */
  payload: { path: string; text: string };
};

/**
 * Rewrites one prerendered page (see the file's comment).
 * @param html the page as `next build` wrote it
 * @param options.atLoad URLs of the scripts to run at once after `load` (the build's loader
 *   manifest: the visit beacon, the page script); `options.now`: the framework's scripts too,
 *   with no interaction awaited (the console's pages)
 * @throws Error when the page has no Next.js payload (`self.__next_f`), no script file, a
 *   `<script src>` outside `/_next/static/`, an inline module script, or no `</body>`
 */
export function deferScripts(
  html: string,
  options: { atLoad?: readonly string[]; now?: boolean } = {},
): DeferredPage {
  const sources: string[] = [];
  const noModule: string[] = [];
  const inline: string[] = [];
  const scanner = createHtmlScanner({
    script(attributes, body, whole) {
      const script = scriptKind(attributes);
      switch (script.kind) {
        case 'data':
          return whole; // a data block such as JSON-LD stays
        case 'inline':
        case 'loader':
          inline.push(body);
          return '';
        case 'module':
          throw new Error('defer-scripts: a module script; the loader only knows classic scripts');
        case 'foreign':
          throw new Error(`defer-scripts: unexpected script source ${script.url}`);
        case 'file':
          if (!sources.includes(script.url)) sources.push(script.url);
          if (script.noModule) noModule.push(script.url);
          return '';
      }
    },
    link: (tag) => (isScriptPreload(tag) ? '' : tag),
    bodyEnd: () => '',
  });
  const rewritten = scanner.push(html) + scanner.end();
  if (!inline.some((body) => body.includes('self.__next_f')))
    throw new Error('defer-scripts: no Next.js payload (self.__next_f) in the page');
  if (sources.length === noModule.length)
    throw new Error('defer-scripts: no Next.js script file in the page');
  const text = inline.join('\n;\n') + '\n';
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  const payload = { path: `/_next/static/${DEFERRED_FOLDER}/${hash}.js`, text };
  const scripts = [payload.path, ...sources];
  const end = rewritten.lastIndexOf('</body>');
  if (end < 0) throw new Error('defer-scripts: no </body> in the page');
  const loader = loaderTag({ scripts, noModule, atLoad: options.atLoad, now: options.now });
  return { html: rewritten.slice(0, end) + loader + rewritten.slice(end), payload };
}
