// Build step (scripts/build/after-build.mts): bundles the seam in front of Next.js
// (src/seam/server.ts) into the standalone bundle's entry, `serve/start.mjs`, one ES module for
// Node.js with its dependencies inside; Next.js itself is loaded from the bundle at run time.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles src/seam/server.ts into `outfile`.
 * @throws Error when it does not build
 */
export async function buildSeam(outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(root, 'src/seam/server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    tsconfig: path.join(root, 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'warning',
  });
}
