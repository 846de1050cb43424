import 'server-only';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { consoleText } from '@/content/console';
import type { Db } from '../../platform/db';
import type { ConsoleEnv } from './env';
import { hashClientAddress } from '../../platform/http/client-address';
import { addressHash } from '../../platform/people/address-hash';
import { consumeRateLimit } from '../../platform/rate-limit';
import { getSiteSecret } from '../../platform/security/site-secret';
import { log } from '../../platform/log';
import type { SendMail } from '../../delivery/email/transport';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import {
  CONSOLE_PATH,
  SIGN_IN_CONFIRM_PATH,
  SIGN_IN_LINK_SECONDS,
  SIGN_IN_PATH,
  makeSignInToken,
  type ConsoleAuth,
} from './auth';
import { listOperators, normaliseEmail } from './operators';

/** The window of the sign-in limits. */
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * What a sign-in request answers: `sent` (the same for an operator and a stranger: only an
 * operator gets an e-mail), `limited` past the limits, `invalid` when it is no e-mail address.
 */
export type SignInAnswer = 'sent' | 'limited' | 'invalid';

/**
 * The job of one sign-in request (`console.sign-in`), queued for every address alike: the
 * address's keyed hash (a stranger's address is never stored), until when a link may still be
 * sent (ms) and the console page to return to. It carries no token: the handler makes one.
 */
export const signInJob = defineJob(
  'console.sign-in',
  z.object({
    emailHash: z.string().regex(/^[0-9a-f]{64}$/),
    until: z.number().int(),
    next: z.string().max(2000).optional(),
  }),
);

/**
 * A console path to come back to after signing in (`/admin` or below, no other origin, no
 * backslash), else undefined.
 */
export function consoleReturnPath(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.length > 2000) return undefined;
  if (!/^\/admin(?:[/?#]|$)/.test(path) || /[\\\s]/.test(path)) return undefined;
  return path;
}

/**
 * Handles a sign-in request for `email` from `clientAddress`: counts it against the client's and
 * the address's limits (`SIGN_IN_MAX` per 15 minutes each, in the database so every instance
 * shares them), then queues one `console.sign-in` job, whoever the address belongs to. It does
 * the same work and the same writes (two rate-limit counts, one job) for an operator and a
 * stranger and answers before any mail is sent, so neither its answer nor its timing tells who
 * the operators are. `next` (a console path, see consoleReturnPath) is where the link leads.
 */
export async function requestSignIn(
  { db, env }: { db: Db; env: ConsoleEnv },
  email: unknown,
  clientAddress: string,
  now = new Date(),
  next?: string,
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
  await enqueue(
    db,
    signInJob,
    {
      emailHash: addressHash(address, secret),
      until: now.getTime() + SIGN_IN_LINK_SECONDS * 1000,
      next: consoleReturnPath(next),
    },
    { dedupeKey: `console.sign-in:${randomUUID()}` },
  );
  return 'sent';
}

/** What the sign-in job's handler needs. */
export type SignInMailDeps = {
  db: Db;
  auth: () => Promise<ConsoleAuth>;
  secret: () => Promise<string>;
  /** The mail channel; absent: links are not sent (logged). */
  send?: SendMail;
  from: string;
  /** The site's origin, e.g. https://www.nirmaya.example. */
  origin: string;
  /** The clock (ms). */
  now?: () => number;
};

/**
 * The `console.sign-in` handler: once the request's link could no longer be used, or when the
 * address is no operator's, there is nothing to do; otherwise it makes a fresh single-use token
 * and mails the link to the confirmation page. A failed send throws, so the job is tried again,
 * each time with a new token, until `until`.
 */
export function sendSignInLink(
  deps: SignInMailDeps,
): JobHandler<z.infer<typeof signInJob.payload>> {
  return async ({ payload }) => {
    if ((deps.now ?? Date.now)() >= payload.until) return { skipped: 'sign-in link expired' };
    const secret = await deps.secret();
    const operator = (await listOperators(deps.db)).find(
      ({ email }) => addressHash(email, secret) === payload.emailHash,
    );
    if (!operator) return { skipped: 'not an operator' };
    if (!deps.send) {
      log.warn({ event: 'console.sign_in_mail_unconfigured' });
      return { skipped: 'no mail channel' };
    }
    const token = await makeSignInToken(await deps.auth(), operator.email);
    const url = new URL(SIGN_IN_CONFIRM_PATH, deps.origin);
    url.searchParams.set('token', token);
    if (payload.next && payload.next !== CONSOLE_PATH) url.searchParams.set('next', payload.next);
    await deps.send({
      from: deps.from,
      to: operator.email,
      subject: consoleText.mail.subject,
      text: consoleText.mail.text(url.href),
    });
  };
}

/**
 * Signs in with the link's `token` (the confirmation page's POST, never the link's GET):
 * better-auth's verify, called on the server, uses the token up and answers a redirect, with the
 * session cookie, to `next` (a console path, default the inbox), or to the sign-in page with
 * `?link=failed` when the token is unknown, used or expired.
 */
export async function confirmSignIn(
  auth: ConsoleAuth,
  token: string,
  next?: string,
): Promise<Response> {
  const failed = `${SIGN_IN_PATH}?link=failed`;
  if (!token || token.length > 200) return redirectTo(auth, failed);
  return auth.api.magicLinkVerify({
    query: {
      token,
      callbackURL: consoleReturnPath(next) ?? CONSOLE_PATH,
      errorCallbackURL: failed,
    },
    headers: new Headers(),
    asResponse: true,
  });
}

/** A 303 to the site's `path`. */
async function redirectTo(auth: ConsoleAuth, path: string): Promise<Response> {
  const { baseURL } = await auth.$context;
  return new Response(null, { status: 303, headers: { location: new URL(path, baseURL).href } });
}
