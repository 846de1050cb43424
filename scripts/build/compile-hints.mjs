// V8's explicit compile hints for the scripts every page runs at start-up. Called by `next build`
// (next.config.ts, compiler.runAfterProductionCompile) and, for the empty Next.js page, by the bench.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import vm from 'node:vm';

/**
 * The magic comment (Chrome 136 and later) that asks V8 to compile every function of a script
 * eagerly, on the background thread that streams it, instead of lazily on the main thread when
 * each function is first called. Other engines ignore it: it is a comment.
 * https://v8.dev/blog/explicit-compile-hints
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

const MANIFEST_SUFFIX = '_client-reference-manifest.js';

/**
 * The client chunks a page runs at start-up, as paths relative to `distDir`
 * (e.g. `static/chunks/0c1ad7rcpjghx.js`): the framework's root main files (build-manifest.json)
 * and every route's entry files (its client reference manifest). Not the `nomodule` polyfills,
 * which modern browsers skip, nor chunks loaded later on demand.
 * @param {string} distDir the build output folder (`.next` by default)
 * @returns {Promise<string[]>} sorted, without repeats
 * @throws {Error} when the manifests are missing or not shaped as Next.js 16 writes them (no
 *   rootMainFiles, no client reference manifest, or one without `entryJSFiles`): the build then
 *   fails with this message instead of silently shipping without hints.
 */
export async function startupChunks(distDir) {
  const buildManifest = JSON.parse(
    await readFile(path.join(distDir, 'build-manifest.json'), 'utf8'),
  );
  const rootMainFiles = buildManifest.rootMainFiles ?? [];
  if (rootMainFiles.length === 0)
    throw shapeError(`${distDir}/build-manifest.json names no rootMainFiles`);
  const chunks = new Set(rootMainFiles);
  const appDir = path.join(distDir, 'server', 'app');
  const files = (await readdir(appDir, { recursive: true })).filter((name) =>
    name.endsWith(MANIFEST_SUFFIX),
  );
  if (files.length === 0) throw shapeError(`no *${MANIFEST_SUFFIX} under ${appDir}`);
  for (const file of files) {
    // Each manifest is a script assigning globalThis.__RSC_MANIFEST[route] = { entryJSFiles, … }.
    const context = {};
    vm.runInNewContext(await readFile(path.join(appDir, file), 'utf8'), context);
    const manifests = Object.values(context.__RSC_MANIFEST ?? {});
    if (
      manifests.length === 0 ||
      manifests.some((manifest) => typeof manifest?.entryJSFiles !== 'object')
    ) {
      throw shapeError(`${file} assigns no __RSC_MANIFEST entry with entryJSFiles`);
    }
    for (const manifest of manifests) {
      for (const entry of Object.values(manifest.entryJSFiles))
        for (const chunk of entry) chunks.add(chunk);
    }
  }
  return [...chunks].filter((chunk) => chunk.endsWith('.js')).sort();
}

function shapeError(detail) {
  return new Error(
    `Compile hints: the build's manifests changed shape (${detail}). ` +
      'Update scripts/build/compile-hints.mjs for this Next.js version, or remove the step from next.config.ts.',
  );
}

/**
 * Puts {@link COMPILE_HINT} first in each start-up chunk of the build in `distDir`, once: a chunk
 * that already starts with it is left as it is, so running it twice changes nothing. The chunks
 * keep their names: the step is deterministic, so a name still stands for one content and the
 * long immutable caching of `/_next/static` stays right.
 * @param {string} distDir the build output folder (`.next` by default)
 * @returns {Promise<string[]>} the chunks (relative to `distDir`) that start with the hint
 * @throws {Error} when the build's manifests are missing (see {@link startupChunks})
 */
export async function addCompileHints(distDir) {
  const chunks = await startupChunks(distDir);
  for (const chunk of chunks) {
    const file = path.join(distDir, chunk);
    const source = await readFile(file, 'utf8');
    if (!source.startsWith(COMPILE_HINT)) await writeFile(file, COMPILE_HINT + source);
  }
  return chunks;
}

/**
 * Takes {@link COMPILE_HINT} out of every start-up chunk again (the bench's A/B of the hints on one
 * build: `npm run bench -- --compile-hints-ab`).
 * @param {string} distDir the build output folder
 * @returns {Promise<string[]>} the chunks that had the hint
 */
export async function removeCompileHints(distDir) {
  const hinted = [];
  for (const chunk of await startupChunks(distDir)) {
    const file = path.join(distDir, chunk);
    const source = await readFile(file, 'utf8');
    if (!source.startsWith(COMPILE_HINT)) continue;
    await writeFile(file, source.slice(COMPILE_HINT.length));
    hinted.push(chunk);
  }
  return hinted;
}
