import { describe, expect, it } from 'vitest';
import { isHttps } from './transport';

const request = (url: string, headers: Record<string, string> = {}) => ({
  url,
  headers: new Headers(headers),
});
const viaProxy = request('http://127.0.0.1:3000/', { 'x-forwarded-proto': 'https' });

describe('isHttps', () => {
  it('is true when the public site URL is https', () => {
    expect(
      isHttps(request('http://127.0.0.1:3000/'), { SITE_URL: 'https://nirmaya.example' }),
    ).toBe(true);
  });

  it('is true for a request that itself came over https', () => {
    expect(isHttps(request('https://nirmaya.example/'), {})).toBe(true);
  });

  it('believes X-Forwarded-Proto only behind a trusted proxy', () => {
    expect(isHttps(viaProxy, {})).toBe(false);
    expect(isHttps(viaProxy, { TRUST_PROXY: '0' })).toBe(false);
    expect(isHttps(viaProxy, { TRUST_PROXY: 'false' })).toBe(false);
    expect(isHttps(viaProxy, { TRUST_PROXY: '1' })).toBe(true);
    expect(isHttps(viaProxy, { TRUST_PROXY: 'true' })).toBe(true);
  });

  it('is false for plain http with an http site URL', () => {
    expect(
      isHttps(request('http://127.0.0.1:3000/', { 'x-forwarded-proto': 'http' }), {
        SITE_URL: 'http://x',
        TRUST_PROXY: '1',
      }),
    ).toBe(false);
  });
});
