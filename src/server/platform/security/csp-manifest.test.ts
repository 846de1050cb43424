import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCspManifest, manifestKey } from './csp-manifest';
import { scriptHash } from '@/lib/security/inline-scripts';

let dist: string;

beforeEach(() => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'csp-manifest-'));
  const app = path.join(dist, 'server', 'app');
  mkdirSync(path.join(app, 'products'), { recursive: true });
  writeFileSync(path.join(dist, 'BUILD_ID'), 'b1\n');
  writeFileSync(path.join(app, 'index.html'), '<script>home()</script>');
  writeFileSync(path.join(app, 'index.meta'), '{}');
  writeFileSync(
    path.join(app, 'products', '4.html'),
    '<script src="/x.js"></script><script>four()</script>',
  );
  writeFileSync(path.join(app, 'products', '4.meta'), '{}');
  writeFileSync(path.join(app, 'products', 'opengraph-image.body'), 'PNG');
  writeFileSync(path.join(app, 'products', 'opengraph-image.meta'), '{}');
  writeFileSync(path.join(app, '_not-found.html'), '<script>missing()</script>');
});

afterEach(() => rmSync(dist, { recursive: true, force: true }));

describe('createCspManifest', () => {
  it('hashes the inline scripts of every prerendered page and lists every output', () => {
    expect(createCspManifest(dist)).toEqual({
      buildId: 'b1',
      pages: {
        '/': [scriptHash('home()')],
        '/_not-found': [scriptHash('missing()')],
        '/products/4': [scriptHash('four()')],
      },
      outputs: ['/', '/products/4', '/products/opengraph-image'],
    });
  });

  it('fails when the build has no static 404 page (a changed build layout)', () => {
    rmSync(path.join(dist, 'server', 'app', '_not-found.html'));
    expect(() => createCspManifest(dist)).toThrow(/no prerendered HTML for \/_not-found/);
  });

  it('fails when there is no build', () => {
    expect(() => createCspManifest(path.join(dist, 'missing'))).toThrow();
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
