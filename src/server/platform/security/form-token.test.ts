import { describe, expect, it } from 'vitest';
import { TOKEN_MAX_AGE_MS, TOKEN_MIN_AGE_MS, issueFormToken, verifyFormToken } from './form-token';

const secret = 'k'.repeat(32);
const t0 = 1_800_000_000_000;

describe('form token', () => {
  it('is valid between its minimum and maximum age, with a stable nonce', () => {
    const token = issueFormToken(secret, t0);
    const early = verifyFormToken(token, secret, t0 + TOKEN_MIN_AGE_MS);
    const late = verifyFormToken(token, secret, t0 + TOKEN_MAX_AGE_MS);
    expect(early).toEqual({ ok: true, nonce: expect.any(String), ageMs: TOKEN_MIN_AGE_MS });
    expect(late).toEqual({ ...early, ageMs: TOKEN_MAX_AGE_MS });
  });

  it.each([
    ['missing', undefined, t0 + 5_000],
    ['missing', '', t0 + 5_000],
    ['too-fast', 'fresh', t0 + TOKEN_MIN_AGE_MS - 1],
    ['expired', 'fresh', t0 + TOKEN_MAX_AGE_MS + 1],
    ['tampered', 'v1.abc.def', t0 + 5_000],
    ['tampered', 'other-key', t0 + 5_000],
    ['tampered', 'altered-time', t0 + 5_000],
  ] as const)('reports %s for %s', (reason, kind, now) => {
    const fresh = issueFormToken(secret, t0);
    const token =
      kind === 'fresh'
        ? fresh
        : kind === 'other-key'
          ? issueFormToken('o'.repeat(32), t0)
          : kind === 'altered-time'
            ? fresh.replace(/^v1\.[^.]+/, `v1.${(t0 - 60_000).toString(36)}`)
            : kind;
    expect(verifyFormToken(token, secret, now)).toEqual({ ok: false, reason });
  });
});
