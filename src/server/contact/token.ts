import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed, time-limited form tokens: rendered into the form, checked on submit. A bot that posts
 * without loading the form, too fast, or with an altered or old token is refused (DESIGN.md §7:
 * a honeypot alone misses bots that post directly).
 *
 * Format: `v1.<issued-at, ms, base 36>.<nonce, 16 random bytes, base64url>.<HMAC-SHA-256, base64url>`.
 */

/** A human needs longer than this to fill in the form (ms). */
export const TOKEN_MIN_AGE_MS = 3_000;
/** After this a token is stale and the visitor is asked to submit again (ms): 6 hours. */
export const TOKEN_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** Result of checking a token; `nonce` identifies the form instance (for idempotent submits). */
export type TokenCheck =
  | { ok: true; nonce: string; ageMs: number }
  | { ok: false; reason: 'missing' | 'tampered' | 'too-fast' | 'expired' };

function sign(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`form-token:${payload}`).digest();
}

/** Issues a token at `now` (ms since the epoch) signed with `secret`. */
export function issueFormToken(secret: string, now: number = Date.now()): string {
  const payload = `v1.${now.toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${sign(payload, secret).toString('base64url')}`;
}

/**
 * Checks a submitted token against `secret` at `now` (ms since the epoch). `minAgeMs` (default
 * {@link TOKEN_MIN_AGE_MS}) is the clock test; pass 0 to apply it later (the submission skips it
 * when an ALTCHA proof vouches for a human, issue 10). Never throws.
 * @returns the nonce and the token's age in ms, or why it is refused.
 */
export function verifyFormToken(
  token: unknown,
  secret: string,
  now: number = Date.now(),
  minAgeMs: number = TOKEN_MIN_AGE_MS,
): TokenCheck {
  if (typeof token !== 'string' || token === '') return { ok: false, reason: 'missing' };
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return { ok: false, reason: 'tampered' };
  const [version, issued, nonce, signature] = parts as [string, string, string, string];
  const expected = sign(`${version}.${issued}.${nonce}`, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'tampered' };
  }
  const age = now - parseInt(issued, 36);
  if (!Number.isFinite(age) || age < minAgeMs) return { ok: false, reason: 'too-fast' };
  if (age > TOKEN_MAX_AGE_MS) return { ok: false, reason: 'expired' };
  return { ok: true, nonce, ageMs: age };
}
