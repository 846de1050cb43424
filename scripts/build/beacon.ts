// Build step (scripts/build/after-build.mts): the visit beacon (src/lib/visit-beacon.ts) as one
// small minified script, named by the hash of its content under `/_next/static/deferred/` (immutable
// like any chunk), which the loader of every public page runs first after `load`.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { DEFERRED_FOLDER } from '../serve/loader.mjs';

/** The beacon's budget, gzip-compressed (bytes). */
export const BEACON_MAX_GZIP_BYTES = 1024;

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles the beacon: an IIFE, minified, for the browsers Next.js supports.
 * @returns its URL path, its text and its gzip size (bytes)
 * @throws Error when it does not build, or is over {@link BEACON_MAX_GZIP_BYTES} gzip-compressed
 */
export async function buildBeacon(): Promise<{ path: string; text: string; gzipBytes: number }> {
  const result = await build({
    stdin: {
      contents:
        "import { startVisitBeacon } from './src/lib/visit-beacon';\nstartVisitBeacon(window);",
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'visit-beacon-entry.ts',
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
  if (gzipBytes > BEACON_MAX_GZIP_BYTES)
    throw new Error(`beacon: ${gzipBytes} bytes gzip, over ${BEACON_MAX_GZIP_BYTES}`);
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  return { path: `/_next/static/${DEFERRED_FOLDER}/${hash}.js`, text, gzipBytes };
}
