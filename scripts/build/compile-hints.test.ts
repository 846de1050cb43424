import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPILE_HINT, addCompileHints, removeCompileHints } from './compile-hints.mjs';

/** A build output folder shaped like Next.js 16's: two manifests and five chunks. */
async function fakeBuild(distDir: string) {
  await mkdir(path.join(distDir, 'static', 'chunks'), { recursive: true });
  await mkdir(path.join(distDir, 'server', 'app', 'contact-us'), { recursive: true });
  await writeFile(
    path.join(distDir, 'build-manifest.json'),
    JSON.stringify({
      polyfillFiles: ['static/chunks/polyfills.js'],
      rootMainFiles: ['static/chunks/framework.js', 'static/chunks/turbopack-runtime.js'],
    }),
  );
  const manifest = {
    entryJSFiles: {
      '[project]/src/app/layout': ['static/chunks/layout.js'],
      '[project]/src/app/contact-us/page': ['static/chunks/layout.js', 'static/chunks/form.js'],
    },
  };
  await writeFile(
    path.join(distDir, 'server', 'app', 'contact-us', 'page_client-reference-manifest.js'),
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST["/contact-us/page"] = ${JSON.stringify(manifest)};\n`,
  );
  for (const name of ['framework', 'turbopack-runtime', 'layout', 'form', 'polyfills', 'lazy']) {
    await writeFile(path.join(distDir, 'static', 'chunks', `${name}.js`), `self.${name}=1;`);
  }
}

const chunk = (distDir: string, name: string) =>
  readFile(path.join(distDir, 'static', 'chunks', `${name}.js`), 'utf8');

describe('addCompileHints', () => {
  let distDir: string;
  beforeEach(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'compile-hints-'));
  });
  afterEach(() => rm(distDir, { recursive: true, force: true }));

  it('hints the root main files and every route entry file, nothing else', async () => {
    await fakeBuild(distDir);
    expect(await addCompileHints(distDir)).toEqual([
      'static/chunks/form.js',
      'static/chunks/framework.js',
      'static/chunks/layout.js',
      'static/chunks/turbopack-runtime.js',
    ]);
    expect(await chunk(distDir, 'framework')).toBe(`${COMPILE_HINT}self.framework=1;`);
    expect(await chunk(distDir, 'form')).toBe(`${COMPILE_HINT}self.form=1;`);
    // The nomodule polyfills and chunks loaded on demand keep lazy compilation.
    expect(await chunk(distDir, 'polyfills')).toBe('self.polyfills=1;');
    expect(await chunk(distDir, 'lazy')).toBe('self.lazy=1;');
  });

  it('adds the hint once when run twice', async () => {
    await fakeBuild(distDir);
    await addCompileHints(distDir);
    await addCompileHints(distDir);
    expect(await chunk(distDir, 'layout')).toBe(`${COMPILE_HINT}self.layout=1;`);
  });

  it('removes exactly the hints it added (the bench A/B)', async () => {
    await fakeBuild(distDir);
    await addCompileHints(distDir);
    expect(await removeCompileHints(distDir)).toHaveLength(4);
    expect(await chunk(distDir, 'framework')).toBe('self.framework=1;');
    expect(await removeCompileHints(distDir)).toEqual([]);
  });

  it('fails loudly when the build has no manifest', async () => {
    await expect(addCompileHints(distDir)).rejects.toThrow(/build-manifest\.json/);
    await writeFile(path.join(distDir, 'build-manifest.json'), '{"rootMainFiles":[]}');
    await expect(addCompileHints(distDir)).rejects.toThrow(/changed shape.*no rootMainFiles/);
  });

  it('fails loudly, never skips, when the client reference manifests change shape', async () => {
    await fakeBuild(distDir);
    const manifest = path.join(
      distDir,
      'server',
      'app',
      'contact-us',
      'page_client-reference-manifest.js',
    );
    await writeFile(
      manifest,
      'globalThis.__RSC_MANIFEST = { "/contact-us/page": { clientModules: {} } };',
    );
    await expect(addCompileHints(distDir)).rejects.toThrow(/changed shape.*entryJSFiles/);
    await rm(manifest);
    await expect(addCompileHints(distDir)).rejects.toThrow(
      /changed shape.*client-reference-manifest/,
    );
  });
});
