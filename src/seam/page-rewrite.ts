// The per-request counterpart of scripts/build/defer-scripts.ts, called by the seam on any page it
// serves under a CSP nonce: a page rendered per request (a form token and a CSP nonce each time)
// is rewritten as it streams so that it requests no script
// before `load`. Its `<script src>` tags and `<link rel="preload" as="script">` hints are removed
// and the loader (src/lib/page-loader.ts), with the page's nonce, is written before `</body>` with the list of
// files (run on the first interaction) and the small scripts run at once after `load`. Its inline scripts (`self.__next_f.push(…)`, under the nonce)
// stay where they are: they request nothing. Text streams on as it comes; only an element that could
// be a tag waits for its end. A page whose shape it does not know is never broken: from there on
// the rest passes unchanged (the tags already taken out are put back first), and one line is logged
// per reason and process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createHtmlScanner,
  isScriptPreload,
  LOADER_MANIFEST_FILE,
  loaderTag,
  scriptKind,
  type LoaderManifest,
} from '../lib/page-loader';
import { seamLog } from './log';

/** Reasons already logged by this process. */
const logged = new Set<string>();

/** One warning line per reason and process. */
function warnOnce(reason: string): void {
  if (logged.has(reason)) return;
  logged.add(reason);
  seamLog(
    'warn',
    { event: 'html.scripts_not_deferred', reason },
    'A page rendered per request has a shape the loader does not know: sent as Next.js wrote it',
  );
}

/**
 * The loader manifest written by `npm run build` (`{ beacon, page }`: URLs of the visit beacon
 * and the page script), or an empty one (with a warning) when the build has none.
 * @param distDir the build folder the server runs
 */
export function loadLoaderManifest(distDir: string): LoaderManifest {
  try {
    return JSON.parse(
      readFileSync(path.join(distDir, LOADER_MANIFEST_FILE), 'utf8'),
    ) as LoaderManifest;
  } catch {
    console.warn(
      `No ${LOADER_MANIFEST_FILE} in ${distDir}: pages carry no visit beacon nor page script.`,
    );
    return {};
  }
}

/**
 * The CSP nonce of a response's policy (`'nonce-…'` in `script-src`), or `null` (a prerendered
 * page, allowed by hashes, was rewritten at build).
 * @param policy the Content-Security-Policy header
 */
export function nonceOf(policy: unknown): string | null {
  return /'nonce-([A-Za-z0-9+/_=-]+)'/.exec(String(policy ?? ''))?.[1] ?? null;
}

/** A rewrite of one page as it streams: feed it text, then end it. */
export type PageRewrite = { push(text: string): string; end(): string };

/**
 * A rewrite of one HTML page as it streams (see the file's comment).
 * @param options `nonce`: the page's CSP nonce; `atLoad`: the scripts the loader runs at once after
 *   `load` (atLoadScripts of the manifest); `warn`: where a page of unknown shape is reported
 */
export function createPageRewrite({
  nonce,
  atLoad = [],
  warn = warnOnce,
}: {
  nonce: string;
  atLoad?: readonly string[];
  warn?: (reason: string) => void;
}): PageRewrite {
  /** The files to load, in document order, and the original tags taken out. */
  const sources: string[] = [];
  const noModule: string[] = [];
  const removed: string[] = [];
  let done = false;

  /** Stops rewriting: what was taken out goes back, the rest passes unchanged. */
  const giveUp = (reason: string): string => {
    warn(reason);
    done = true;
    scanner.stop();
    return removed.join('');
  };

  const scanner = createHtmlScanner({
    script(attributes, _body, whole) {
      if (done) return whole;
      const script = scriptKind(attributes);
      switch (script.kind) {
        case 'data':
        case 'inline':
          return whole;
        case 'loader': // deferred at build (the 404 page): nothing to do
          done = true;
          scanner.stop();
          return removed.join('') + whole;
        case 'module':
          return giveUp('module script') + whole;
        case 'foreign':
          return giveUp('script from elsewhere') + whole;
        case 'file':
          if (!sources.includes(script.url)) sources.push(script.url);
          if (script.noModule) noModule.push(script.url);
          removed.push(whole);
          return '';
      }
    },
    link: (tag) => (!done && isScriptPreload(tag) ? '' : tag),
    bodyEnd() {
      if (done) return '';
      done = true;
      scanner.stop();
      if (sources.length === noModule.length) return giveUp('no script file');
      return loaderTag({ scripts: sources, noModule, atLoad, nonce });
    },
  });

  return {
    push: (text) => scanner.push(text),
    end() {
      const rest = scanner.end();
      return done ? rest : rest + giveUp('no </body>');
    },
  };
}
