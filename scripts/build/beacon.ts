// Build step (scripts/build/after-build.mts): the small scripts the loader of every public page runs
// at once after `load`, before and without the framework: the visit beacon (src/lib/visit-beacon.ts)
// and the page script (src/lib/page-script.ts: reveal on scroll, the footer's year, the tabs' orientation). Each is one minified script, named by the hash of its
// content under `/_next/static/deferred/` (immutable like any chunk).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { DEFERRED_FOLDER } from '../../src/lib/page-loader';

/**
 * The beacon's budget, gzip-compressed (bytes): 1,024 until it had to validate the referrer's host
 * and normalise UTM tags itself (a stranger's beacon must not write a sentence onto the Sources
 * page), which took it to about 1,070. It runs after the first paint, so it costs no paint.
 */
export const BEACON_MAX_GZIP_BYTES = 1152;

/** The page script's budget, gzip-compressed (bytes). */
export const PAGE_SCRIPT_MAX_GZIP_BYTES = 1024;

const root = path.resolve(import.meta.dirname, '../..');

/** A script built for the loader: its URL path, its text and its gzip size (bytes). */
export type DeferredScript = { path: string; text: string; gzipBytes: number };

/**
 * Bundles `start(window)` from `module` (a path from the project's root) as an IIFE, minified, for
 * the browsers Next.js supports.
 * @throws Error when it does not build, or is over `maxGzipBytes` gzip-compressed
 */
async function bundleStarter(
  module: string,
  start: string,
  maxGzipBytes: number,
): Promise<DeferredScript> {
  const result = await build({
    stdin: {
      contents: `import { ${start} } from './${module}';\n${start}(window);`,
      resolveDir: root,
      loader: 'ts',
      sourcefile: `${path.basename(module)}-entry.ts`,
    },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const gzipBytes = gzipSync(text, { level: 9 }).length;
  if (gzipBytes > maxGzipBytes)
    throw new Error(`${module}: ${gzipBytes} bytes gzip, over ${maxGzipBytes}`);
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  return { path: `/_next/static/${DEFERRED_FOLDER}/${hash}.js`, text, gzipBytes };
}

/**
 * Bundles the visit beacon.
 * @throws Error when it does not build, or is over {@link BEACON_MAX_GZIP_BYTES} gzip-compressed
 */
export function buildBeacon(): Promise<DeferredScript> {
  return bundleStarter('src/lib/visit-beacon', 'startVisitBeacon', BEACON_MAX_GZIP_BYTES);
}

/**
 * Bundles the page script.
 * @throws Error when it does not build, or is over {@link PAGE_SCRIPT_MAX_GZIP_BYTES} gzip-compressed
 */
export function buildPageScript(): Promise<DeferredScript> {
  return bundleStarter('src/lib/page-script', 'startPageScript', PAGE_SCRIPT_MAX_GZIP_BYTES);
}
