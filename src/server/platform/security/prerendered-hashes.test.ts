import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSP_MANIFEST_FILE, createCspManifest } from './csp-manifest';
import { scriptHash } from '@/lib/security/inline-scripts';
import {
  hasPrerenderedOutput,
  notFoundScriptHashes,
  prerenderedScriptHashes,
} from './prerendered-hashes';

let dist: string;

beforeAll(() => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'csp-hashes-'));
  const app = path.join(dist, 'server', 'app');
  mkdirSync(path.join(app, 'products'), { recursive: true });
  writeFileSync(path.join(dist, 'BUILD_ID'), 'b1');
  writeFileSync(path.join(app, 'index.html'), '<script>home()</script>');
  writeFileSync(path.join(app, 'products', '4.html'), '<script>four()</script>');
  writeFileSync(path.join(app, 'products', '4.meta'), '{}');
  writeFileSync(path.join(app, 'products', 'opengraph-image.meta'), '{}');
  writeFileSync(path.join(app, '_not-found.html'), '<script>missing()</script>');
  writeFileSync(path.join(dist, CSP_MANIFEST_FILE), JSON.stringify(createCspManifest(dist)));
  vi.stubEnv('NEXT_DIST_DIR', dist);
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dist, { recursive: true, force: true });
});

describe('prerendered-hashes (from the build manifest)', () => {
  it('gives the hashes of a prerendered page, however its path is spelled', () => {
    expect(prerenderedScriptHashes('/')).toEqual([scriptHash('home()')]);
    expect(prerenderedScriptHashes('/products/%34/')).toEqual([scriptHash('four()')]);
  });

  it('is null for a path that was not prerendered or is malformed', () => {
    expect(prerenderedScriptHashes('/contact-us')).toBeNull();
    expect(prerenderedScriptHashes('/products/%2E%2E/index')).toBeNull();
  });

  it('reads the manifest once: later changes to the build folder do not matter', () => {
    writeFileSync(path.join(dist, CSP_MANIFEST_FILE), '{}');
    expect(prerenderedScriptHashes('/')).toEqual([scriptHash('home()')]);
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
