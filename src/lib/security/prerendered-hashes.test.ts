import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scriptHash } from './inline-scripts';
import {
  hasPrerenderedOutput,
  notFoundScriptHashes,
  prerenderedFile,
  prerenderedScriptHashes,
} from './prerendered-hashes';

let root: string;
let app: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'csp-hashes-'));
  app = path.join(root, '.next-test', 'server', 'app');
  mkdirSync(path.join(app, 'products'), { recursive: true });
  writeFileSync(path.join(app, 'index.html'), '<script>home()</script>');
  writeFileSync(
    path.join(app, 'products', '4.html'),
    '<script src="/x.js"></script><script>four()</script>',
  );
  writeFileSync(path.join(app, '_not-found.html'), '<script>missing()</script>');
  writeFileSync(path.join(app, 'products', 'opengraph-image.body'), 'PNG');
  writeFileSync(path.join(app, 'products', 'opengraph-image.meta'), '{}');
  writeFileSync(path.join(app, 'products', '4.meta'), '{}');
  vi.spyOn(process, 'cwd').mockReturnValue(root);
  vi.stubEnv('NEXT_DIST_DIR', '.next-test');
});

afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

describe('prerenderedFile', () => {
  it('maps a path to the HTML file next build writes for it', () => {
    expect(prerenderedFile('/')).toBe(path.join(app, 'index.html'));
    expect(prerenderedFile('/products/4')).toBe(path.join(app, 'products', '4.html'));
    expect(prerenderedFile('/about%2Dus')).toBe(path.join(app, 'about-us.html'));
  });

  it('refuses paths that would leave the build folder or are malformed', () => {
    for (const pathname of [
      '/..',
      '/products/%2E%2E/%2E%2E/secret',
      '/a%5Cb',
      '/%00',
      '/%E0%A4%A',
    ]) {
      expect(prerenderedFile(pathname), pathname).toBeNull();
    }
  });
});

describe('prerenderedScriptHashes', () => {
  it('hashes the inline scripts of a prerendered page', () => {
    expect(prerenderedScriptHashes('/')).toEqual([scriptHash('home()')]);
    expect(prerenderedScriptHashes('/products/4')).toEqual([scriptHash('four()')]);
  });

  it('is null for a path that was not prerendered', () => {
    expect(prerenderedScriptHashes('/contact-us')).toBeNull();
    expect(prerenderedScriptHashes('/products')).toBeNull();
  });

  it('follows a rewritten file', () => {
    const file = path.join(app, 'about-us.html');
    writeFileSync(file, '<script>a()</script>');
    expect(prerenderedScriptHashes('/about-us')).toEqual([scriptHash('a()')]);
    writeFileSync(file, '<script>changed()</script>');
    expect(prerenderedScriptHashes('/about-us')).toEqual([scriptHash('changed()')]);
  });

  it('tells file routes and pages from paths without build output', () => {
    expect(hasPrerenderedOutput('/products/opengraph-image')).toBe(true);
    expect(hasPrerenderedOutput('/products/4')).toBe(true);
    expect(hasPrerenderedOutput('/products/abc')).toBe(false);
    expect(prerenderedScriptHashes('/products/opengraph-image')).toBeNull();
  });

  it('knows the static 404 page', () => {
    expect(notFoundScriptHashes()).toEqual([scriptHash('missing()')]);
  });
});
