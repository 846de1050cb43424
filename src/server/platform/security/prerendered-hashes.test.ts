import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeBuild } from '@test/fake-build';
import { createSiteManifest } from '../../../../scripts/build/site-manifest';
import { scriptHash } from '@/lib/security/inline-scripts';
import { SITE_MANIFEST_FILE } from '@/seam/site-manifest';
import { isApiRoute, refusalPage, serverActionIds } from './build-facts';
import {
  hasPrerenderedOutput,
  notFoundScriptHashes,
  prerenderedScriptHashes,
} from './prerendered-hashes';

let dist: string;

beforeAll(() => {
  dist = fakeBuild();
  writeFileSync(path.join(dist, SITE_MANIFEST_FILE), JSON.stringify(createSiteManifest(dist)));
  vi.stubEnv('NEXT_DIST_DIR', dist);
  vi.stubEnv('NODE_ENV', 'production');
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dist, { recursive: true, force: true });
});

describe('prerendered-hashes (from the site manifest)', () => {
  it('gives the hashes of a prerendered page, however its path is spelled', () => {
    expect(prerenderedScriptHashes('/')).toEqual([scriptHash('home()')]);
    expect(prerenderedScriptHashes('/products/%34/')).toEqual([scriptHash('four()')]);
  });

  it('is null for a path that was not prerendered or is malformed', () => {
    expect(prerenderedScriptHashes('/contact-us')).toBeNull();
    expect(prerenderedScriptHashes('/products/%2E%2E/index')).toBeNull();
  });

  it('reads the manifest once: later changes to the build folder do not matter', () => {
    writeFileSync(path.join(dist, SITE_MANIFEST_FILE), '{}');
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

describe('build facts (from the site manifest)', () => {
  it('knows the server actions and the API routes, dynamic segments included', () => {
    expect(serverActionIds()).toEqual(new Set(['a1', 'a2']));
    expect(isApiRoute('/api/health')).toBe(true);
    expect(isApiRoute('/api/items/42/')).toBe(true);
    expect(isApiRoute('/api/nothing')).toBe(false);
  });

  it('serves the refusal pages without their scripts', () => {
    expect(refusalPage(404)).toBe('<p>Not found</p>');
    expect(refusalPage(405)).toBe('<p>Refused 405</p>');
  });
});
