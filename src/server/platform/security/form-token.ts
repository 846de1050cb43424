import 'server-only';
import { randomBytes } from 'node:crypto';
import { defineSignedToken, ISSUED_AT } from '../../platform/security/signed-token';

/**
 * Signed, time-limited form tokens: rendered into the form, checked on submit. A bot that posts
 * without loading the form, too fast, or with an altered or old token is refused (DESIGN.md §7:
 * a honeypot alone misses bots that post directly).
 *
 * Format: `v1.<issued-at, ms, base 36>.<nonce, 16 random bytes, base64url>.<HMAC-SHA-256,
 * base64url>`, signed under the label `form-token` (src/server/platform/security/signed-token.ts).
 */

/** A human needs longer than this to fill in the form (ms). */
export const TOKEN_MIN_AGE_MS = 3_000;
/** After this a token is stale and the visitor is asked to submit again (ms): 6 hours. */
export const TOKEN_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** Result of checking a token; `nonce` identifies the form instance (for idempotent submits). */
export type TokenCheck =
  | { ok: true; nonce: string; ageMs: number }
  | { ok: false; reason: 'missing' | 'tampered' | 'too-fast' | 'expired' };

/**
 * The form token's definition: the server issues and checks tokens only through the functions
 * below; tests against a running server sign backdated tokens with it, knowing its `FORM_SECRET`
 * (the issue time is inside the signed token, so no clock of the server is ever overridden).
 */
export const formToken = defineSignedToken({
  purpose: 'form-token',
  version: 'v1',
  fields: [ISSUED_AT, 'nonce'],
  maxAgeMs: TOKEN_MAX_AGE_MS,
});

/** Issues a token at `now` (ms since the epoch) signed with `secret`, with a fresh random nonce. */
export function issueFormToken(secret: string, now: number = Date.now()): string {
  return formToken.issue({ nonce: randomBytes(16).toString('base64url') }, secret, now);
}

/**
 * Checks a submitted token against `secret` at `now` (ms since the epoch). `minAgeMs` (default
 * {@link TOKEN_MIN_AGE_MS}) is the clock test; pass 0 to apply it later (the submission skips it
 * when an ALTCHA proof of work vouches for a human). Never throws.
 * @returns the nonce and the token's age in ms, or why it is refused.
 */
export function verifyFormToken(
  token: unknown,
  secret: string,
  now: number = Date.now(),
  minAgeMs: number = TOKEN_MIN_AGE_MS,
): TokenCheck {
  const check = formToken.verify(token, secret, { now, minAgeMs });
  return check.ok ? { ok: true, nonce: check.values.nonce, ageMs: check.ageMs! } : check;
}
