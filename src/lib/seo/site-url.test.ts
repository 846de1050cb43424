import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_URL, siteUrl } from './site-url';
import { resolveSitePath } from './url';

describe('siteUrl', () => {
  it.each([
    [undefined, `${DEFAULT_SITE_URL}/`],
    ['', `${DEFAULT_SITE_URL}/`],
    ['https://www.nirmaya.example', 'https://www.nirmaya.example/'],
    ['https://www.nirmaya.example/?utm=x#top', 'https://www.nirmaya.example/'],
    ['https://example.org/site', 'https://example.org/site/'],
  ])('%s → %s', (value, expected) => {
    expect(siteUrl(value).href).toBe(expected);
  });

  it.each(['nirmaya.example', 'ftp://nirmaya.example', 'javascript:alert(1)'])(
    'rejects %s',
    (value) => {
      expect(() => siteUrl(value)).toThrow(/SITE_URL/);
    },
  );
});

describe('resolveSitePath', () => {
  it.each([
    ['/', 'https://example.org/', 'https://example.org/'],
    ['/products/3', 'https://example.org/', 'https://example.org/products/3'],
    ['/products/3', 'https://example.org/site/', 'https://example.org/site/products/3'],
    ['/#organization', 'https://example.org/', 'https://example.org/#organization'],
  ])('%s against %s', (path, base, expected) => {
    expect(resolveSitePath(path, base)).toBe(expected);
  });
});
