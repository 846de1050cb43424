import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBuild } from '@test/fake-build';
import { scriptHash } from '@/lib/security/inline-scripts';
import { manifestKey } from '@/seam/site-manifest';
import { createSiteManifest } from './site-manifest';

let dist: string;

beforeEach(() => {
  dist = fakeBuild();
});

afterEach(() => rmSync(dist, { recursive: true, force: true }));

describe('createSiteManifest', () => {
  it('hashes the inline scripts of every prerendered page and lists every output', () => {
    const manifest = createSiteManifest(dist);
    expect(manifest.buildId).toBe('b1');
    expect(manifest.pages).toEqual({
      '/': [scriptHash('home()')],
      '/_not-found': [scriptHash('missing()')],
      '/products/4': [scriptHash('four()')],
      '/request-error/400': [],
      '/request-error/403': [],
      '/request-error/405': [],
      '/request-error/413': [],
      '/request-error/414': [],
    });
    expect(manifest.outputs).toEqual(['/', '/products/4', '/products/opengraph-image']);
  });

  it('holds the server actions, the API routes, the refusal pages and the config', () => {
    const manifest = createSiteManifest(dist);
    expect(manifest.serverActionIds).toEqual(['a1', 'a2']);
    expect(manifest.apiRoutes).toEqual(['/api/health', '/api/items/[id]']);
    expect(manifest.refusalPages['404']).toBe('<p>Not found</p>');
    expect(manifest.refusalPages['413']).toBe('<p>Refused 413</p>');
    expect(manifest.nextConfig).toEqual({ distDir: '.next', poweredByHeader: false });
  });

  it('fails when the build has no static 404 page (a changed build layout)', () => {
    rmSync(path.join(dist, 'server', 'app', '_not-found.html'));
    expect(() => createSiteManifest(dist)).toThrow(/no prerendered HTML for \/_not-found/);
  });

  it('fails, rather than skipping a check at run time, when a manifest of Next.js moved', () => {
    rmSync(path.join(dist, 'server', 'server-reference-manifest.json'));
    expect(() => createSiteManifest(dist)).toThrow(/server-reference-manifest\.json/);
  });

  it('fails when the resolved config is missing', () => {
    writeFileSync(path.join(dist, 'required-server-files.json'), '{}');
    expect(() => createSiteManifest(dist)).toThrow(/has no config/);
  });

  it('fails when there is no build', () => {
    expect(() => createSiteManifest(path.join(dist, 'missing'))).toThrow();
  });
});

describe('manifestKey', () => {
  it('normalises a request path to a manifest key', () => {
    expect(manifestKey('/')).toBe('/');
    expect(manifestKey('/about%2Dus/')).toBe('/about-us');
    expect(manifestKey('/products/4')).toBe('/products/4');
  });

  it('refuses dot segments and malformed paths', () => {
    for (const pathname of ['/..', '/products/%2E%2E/x', '/a%5Cb', '/%00', '/%E0%A4%A'])
      expect(manifestKey(pathname), pathname).toBeNull();
  });
});
