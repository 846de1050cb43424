import 'server-only';
import { createHmac } from 'node:crypto';
import {
  createChallenge,
  randomInt,
  verifySolution,
  type Challenge,
  type Solution,
} from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { proofAlgorithm } from '@/lib/proof-of-work';

/**
 * ALTCHA proof of work on the visitor forms (contact, privacy request), against spam: the browser solves a challenge while the
 * visitor types, and a valid solution stands in for the clock test (a fast human with autofill
 * is delivered). Self-hosted: challenges are signed here with keys derived from the site secret
 * and verified here; nothing calls a third party.
 *
 * Each challenge is bound to one form (the form token's nonce, signed into the challenge's
 * `data.form`), and a form stores at most one enquiry (`leads.submission_id` is unique), so one
 * solution can never vouch for more than one stored enquiry.
 */

/** PBKDF2 iterations per attempt and the range the secret counter is drawn from. */
const COST = 500;
const COUNTER_MIN = 1_000;
const COUNTER_MAX = 4_000;
/** A challenge must be solved and submitted within this time (ms). */
export const CHALLENGE_TTL_MS = 60 * 60 * 1000;

/** What a submitted proof says. `expired` and `absent` leave the clock test to decide. */
export type ProofCheck = 'absent' | 'expired' | 'valid' | 'invalid' | 'replayed';

/** Separate HMAC keys for challenges and derived keys, derived from the site secret. */
function keys(secret: string) {
  const derive = (purpose: string) =>
    createHmac('sha256', secret).update(`altcha:${purpose}`).digest('hex');
  return { hmacSignatureSecret: derive('challenge'), hmacKeySignatureSecret: derive('key') };
}

/**
 * A new challenge for the form whose token nonce is `formNonce`, expiring
 * {@link CHALLENGE_TTL_MS} after `now`.
 */
export function createFormChallenge(
  secret: string,
  formNonce: string,
  now: Date = new Date(),
): Promise<Challenge> {
  return createChallenge({
    algorithm: proofAlgorithm,
    cost: COST,
    counter: randomInt(COUNTER_MIN, COUNTER_MAX),
    deriveKey,
    data: { form: formNonce },
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    ...keys(secret),
  });
}

/**
 * Checks the widget's payload (base64 JSON `{ challenge, solution }`) for the form `formNonce`
 * (null when the form token itself was missing or forged). Never throws.
 * @returns `valid` for a correct, unexpired solution of a challenge we signed for this form;
 *   `replayed` for a valid solution of another form's challenge; `invalid` for anything forged
 *   or malformed; `expired`; `absent` when no payload was posted (JavaScript off).
 */
export async function checkProof(
  payload: unknown,
  secret: string,
  formNonce: string | null,
): Promise<ProofCheck> {
  if (payload === null || payload === undefined || payload === '') return 'absent';
  if (typeof payload !== 'string') return 'invalid';
  let parsed: { challenge?: Challenge; solution?: Solution };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    return 'invalid';
  }
  if (!parsed?.challenge?.parameters || !parsed.solution) return 'invalid';
  try {
    const result = await verifySolution({
      challenge: parsed.challenge,
      solution: parsed.solution,
      deriveKey,
      ...keys(secret),
    });
    if (result.expired) return 'expired';
    if (!result.verified) return 'invalid';
  } catch {
    return 'invalid';
  }
  return formNonce !== null && parsed.challenge.parameters.data?.form === formNonce
    ? 'valid'
    : 'replayed';
}
