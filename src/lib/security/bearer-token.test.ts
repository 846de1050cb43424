import { describe, expect, it } from 'vitest';
import { hasBearerToken } from './bearer-token';

const token = 'scrape-token-0123456789abcdef';

describe('hasBearerToken', () => {
  it('accepts exactly the configured token', () => {
    expect(hasBearerToken(`Bearer ${token}`, token)).toBe(true);
    expect(hasBearerToken(`bearer ${token}`, token)).toBe(true);
  });

  it('refuses a missing, malformed, other or prefixed token, and any token when none is configured', () => {
    expect(hasBearerToken(null, token)).toBe(false);
    expect(hasBearerToken(token, token)).toBe(false);
    expect(hasBearerToken(`Basic ${token}`, token)).toBe(false);
    expect(hasBearerToken(`Bearer ${token}x`, token)).toBe(false);
    expect(hasBearerToken(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(hasBearerToken('Bearer ', token)).toBe(false);
    expect(hasBearerToken('Bearer anything', '')).toBe(false);
  });
});
