import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { solveChallenge } from 'altcha-lib';
import { createFormChallenge } from '@/server/platform/security/altcha';
import { verifyFormToken } from '@/server/platform/security/form-token';
import { TEST_SECRET } from './form-token';

/**
 * Solves the ALTCHA challenge for the form `token` (signed with the test secret) as the widget
 * does, the challenge signed with `secret`, returning the payload the form posts.
 */
export async function solvedProof(token: string, secret = TEST_SECRET): Promise<string> {
  const check = verifyFormToken(token, TEST_SECRET, Date.now(), 0);
  if (!check.ok) throw new Error('bad test token');
  const challenge = await createFormChallenge(secret, check.nonce);
  const started = performance.now();
  const solution = await solveChallenge({ challenge, deriveKey });
  console.log(
    `ALTCHA challenge solved in ${Math.round(performance.now() - started)} ms (counter ${solution?.counter})`,
  );
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
