import 'server-only';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { proofField } from '@/lib/proof-of-work';
import { checkProof } from './altcha';
import { TOKEN_MIN_AGE_MS, verifyFormToken, type TokenCheck } from './form-token';

/**
 * The visitor forms' defences against bots (the contact form and the privacy-request form): a
 * signed form token with a minimum age, a honeypot field, and an ALTCHA proof of work posted by
 * the widget when JavaScript runs. Each form reads the same three fields (`formToken`, `xq_trap`,
 * `altcha`) and decides what a bot gets (the contact form quarantines, the privacy form sends
 * nothing); both answer a bot as they answer a person, so it learns nothing.
 */

/**
 * The form token posted in `formData`, checked against `secret` at `now` (ms) without its
 * minimum age (botSignal applies it unless a proof of work vouches for a person). Never throws.
 */
export function postedFormToken(formData: FormData, secret: string, now: number): TokenCheck {
  return verifyFormToken(formData.get(formTokenField), secret, now, 0);
}

/**
 * The bot signal a valid submission trips, or null for a human: the honeypot filled;
 * the form token missing or forged; an ALTCHA payload that is forged or solved for another form;
 * or, when no valid proof vouches for a human (JavaScript off), a token younger than
 * {@link TOKEN_MIN_AGE_MS} (posted faster than a person fills the form).
 * @param token the form's token as postedFormToken read it
 */
export async function botSignal(
  formData: FormData,
  token: TokenCheck,
  secret: string,
): Promise<string | null> {
  return (await botCheck(formData, token, secret)).signal;
}

/**
 * What botSignal decides (`signal`), and whether a valid proof of work for this form came with it
 * (`proofOfWork`: JavaScript ran the widget; the budget of mails to unproven addresses lets such
 * a post send at once when the site is busy).
 */
export async function botCheck(
  formData: FormData,
  token: TokenCheck,
  secret: string,
): Promise<{ signal: string | null; proofOfWork: boolean }> {
  const honeypot = formData.get(honeypotField);
  if (honeypot !== '') return { signal: 'honeypot', proofOfWork: false };
  if (!token.ok) return { signal: token.reason, proofOfWork: false };
  const proof = await checkProof(formData.get(proofField), secret, token.nonce);
  const proofOfWork = proof === 'valid';
  if (proof === 'invalid' || proof === 'replayed')
    return { signal: `altcha-${proof}`, proofOfWork };
  if (!proofOfWork && token.ageMs < TOKEN_MIN_AGE_MS) return { signal: 'too-fast', proofOfWork };
  return { signal: null, proofOfWork };
}
