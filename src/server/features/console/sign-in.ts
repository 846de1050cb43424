import 'server-only';
import type { Db } from '../../platform/db';
import type { ConsoleEnv } from './env';
import { hashClientAddress } from '../../platform/http/client-address';
import { consumeRateLimit } from '../../platform/rate-limit';
import { getSiteSecret } from '../../platform/security/site-secret';
import { CONSOLE_PATH, SIGN_IN_PATH, type ConsoleAuth } from './auth';
import { findOperator, normaliseEmail } from './operators';

/** The window of the sign-in limits. */
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * What a sign-in request answers: `sent` (the same for an operator and a stranger: only an
 * operator gets an e-mail), `limited` past the limits, `invalid` when it is no e-mail address.
 */
export type SignInAnswer = 'sent' | 'limited' | 'invalid';

/**
 * Handles a sign-in request for `email` from `clientAddress`: counts it against the client's and
 * the address's limits (`SIGN_IN_MAX` per 15 minutes each, in the database so every instance
 * shares them), then has better-auth e-mail a sign-in link when the address is an operator's.
 * A stranger's address gets the same answer and no e-mail, so the page tells nobody who the
 * operators are.
 */
export async function requestSignIn(
  { db, env, auth }: { db: Db; env: ConsoleEnv; auth: ConsoleAuth },
  email: unknown,
  clientAddress: string,
  now = new Date(),
): Promise<SignInAnswer> {
  const address = normaliseEmail(email);
  if (!address) return 'invalid';
  const secret = await getSiteSecret(db, env.FORM_SECRET);
  const limit = { max: env.SIGN_IN_MAX, windowMs: SIGN_IN_WINDOW_MS };
  const clientOk = await consumeRateLimit(
    db,
    `sign-in:client:${hashClientAddress(clientAddress, secret)}`,
    limit,
    now,
  );
  const addressOk = await consumeRateLimit(
    db,
    `sign-in:email:${hashClientAddress(address, secret)}`,
    limit,
    now,
  );
  if (!clientOk || !addressOk) return 'limited';
  if (await findOperator(db, address)) {
    await auth.api.signInMagicLink({
      body: {
        email: address,
        callbackURL: CONSOLE_PATH,
        errorCallbackURL: `${SIGN_IN_PATH}?link=failed`,
      },
      headers: new Headers(),
    });
  }
  return 'sent';
}
