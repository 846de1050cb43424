import { afterEach, describe, expect, it, vi } from 'vitest';
import { PEER_ADDRESS_HEADER } from '@/lib/http/peer-address';
import { isConsolePost } from './session';

/** A console form post through the edge (nginx on 10.0.0.2) to an instance on site-1:3000. */
const post = (origin: string | null, forwardedHost = 'console.nirmaya.example') =>
  new Headers({
    host: 'site-1:3000',
    'x-forwarded-host': forwardedHost,
    [PEER_ADDRESS_HEADER]: '10.0.0.2',
    ...(origin ? { origin } : {}),
  });

describe('console actions behind the edge', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('accepts a post from the host the operator addressed when the edge is trusted', () => {
    vi.stubEnv('SITE_URL', 'https://www.nirmaya.example');
    expect(isConsolePost(post('https://console.nirmaya.example'), 1)).toBe(true);
    expect(isConsolePost(post('https://console.nirmaya.example'), ['10.0.0.0/8'])).toBe(true);
  });

  it('ignores the forwarded host when TRUST_PROXY trusts no proxy', () => {
    vi.stubEnv('SITE_URL', 'https://www.nirmaya.example');
    expect(isConsolePost(post('https://console.nirmaya.example'), 0)).toBe(false);
  });

  it("accepts SITE_URL's origin and refuses others, behind the edge or not", () => {
    vi.stubEnv('SITE_URL', 'https://www.nirmaya.example');
    expect(isConsolePost(post('https://www.nirmaya.example'), 0)).toBe(true);
    expect(isConsolePost(post('https://evil.example'), 1)).toBe(false);
    expect(isConsolePost(post(null), 1)).toBe(false);
    expect(isConsolePost(post('https://evil.example', 'evil.example'), ['192.168.0.0/16'])).toBe(
      false,
    );
  });
});
