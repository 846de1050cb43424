// Build step (scripts/build/after-build.mts): brotli at its best quality for what `npm start` sends
// most, prepared once at build instead of on every request: the prerendered pages (after
// defer-scripts.ts rewrote them) and the script and style files under `static/`. Each compressed
// body goes into a folder of its own, `<distDir>/precompressed/`, named by the SHA-256 of the
// uncompressed body, with `index.json` listing them; the seam (src/seam/compression.ts) serves a response
// from there when its body matches one (docs/performance.md).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** Folder of the precompressed bodies inside the build folder, and its index. */
export const PRECOMPRESSED_FOLDER = 'precompressed';
export const PRECOMPRESSED_INDEX = 'index.json';

/** The name of a body's compressed copy: hex SHA-256 of the uncompressed bytes. */
export function bodyKey(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The text files under `static/` worth compressing (scripts, styles). */
export function staticTextFiles(distDir: string): string[] {
  const staticDir = path.join(distDir, 'static');
  return readdirSync(staticDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => path.join(staticDir, file));
}

/**
 * Writes the brotli (quality 11) copy of each body into `<dir>/precompressed/` of each of `dirs`,
 * and the index of them all.
 * @returns how many bodies were compressed
 */
export function precompressPages(bodies: Uint8Array[], dirs: string[]): number {
  const entries = new Map<string, Buffer>();
  for (const body of bodies) {
    const key = bodyKey(body);
    if (entries.has(key)) continue;
    entries.set(
      key,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
  }
  for (const dir of dirs) {
    const folder = path.join(dir, PRECOMPRESSED_FOLDER);
    mkdirSync(folder, { recursive: true });
    for (const [key, compressed] of entries)
      writeFileSync(path.join(folder, `${key}.br`), compressed);
    writeFileSync(path.join(folder, PRECOMPRESSED_INDEX), JSON.stringify([...entries.keys()]));
  }
  return entries.size;
}

/** Reads files (for the static text files). */
export function readBodies(files: string[]): Buffer[] {
  return files.map((file) => readFileSync(file));
}
