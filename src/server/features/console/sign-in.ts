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
import {
  describePendingAct,
  findPendingAct,
  isPendingActId,
  pendingActPath,
  savePendingAct,
} from './pending-act';

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
 * sent (ms) and, only for a fresh sign-in a signed-in operator asked for, the id of their pending
 * act the link returns to. It carries no token: the handler makes one.
 */
export const signInJob = defineJob(
  'console.sign-in',
  z.object({
    emailHash: z.string().regex(/^[0-9a-f]{64}$/),
    until: z.number().int(),
    pending: z.string().uuid().optional(),
  }),
);

/**
 * Counts a sign-in request for `address` from `clientAddress` against the client's and the
 * address's limits (`SIGN_IN_MAX` per 15 minutes each, in the database so every instance shares
 * them) and, within them, queues one `console.sign-in` job returning to `pending` (if any).
 */
async function queueSignIn(
  { db, env }: { db: Db; env: ConsoleEnv },
  address: string,
  clientAddress: string,
  now: Date,
  pending?: string,
): Promise<SignInAnswer> {
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
      pending,
    },
    { dedupeKey: `console.sign-in:${randomUUID()}` },
  );
  return 'sent';
}

/**
 * Handles the public sign-in form's request for `email` from `clientAddress`: counts it against
 * the limits, then queues one `console.sign-in` job, whoever the address belongs to. It does the
 * same work and the same writes (two rate-limit counts, one job) for an operator and a stranger
 * and answers before any mail is sent, so neither its answer nor its timing tells who the
 * operators are. Whoever asks, its link opens the console's home: where a link lands is never
 * chosen by the one asking for it (see requestFreshSignIn).
 */
export async function requestSignIn(
  deps: { db: Db; env: ConsoleEnv },
  email: unknown,
  clientAddress: string,
  now = new Date(),
): Promise<SignInAnswer> {
  const address = normaliseEmail(email);
  if (!address) return 'invalid';
  return queueSignIn(deps, address, clientAddress, now);
}

/**
 * A fresh sign-in for the signed-in `operator` whose dangerous act `act` (the posted `fields`)
 * needs one: keeps the act server-side for that operator (savePendingAct) and queues a link to
 * their own address, within the same limits as any sign-in request, that returns to the act.
 */
export async function requestFreshSignIn(
  deps: { db: Db; env: ConsoleEnv },
  operator: { id: string; email: string },
  act: string,
  fields: Record<string, string[] | undefined>,
  clientAddress: string,
  now = new Date(),
): Promise<SignInAnswer> {
  const pending = await savePendingAct(deps.db, operator.id, act, fields, now);
  return queueSignIn(deps, operator.email, clientAddress, now, pending);
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
 * and mails the link to the confirmation page, as staff mail (an operator's address is never
 * withheld by the suppression list), saying which page it opens: the console's home, or the
 * operator's own pending act when the job names one of theirs that still lasts. A failed send
 * throws, so the job is tried again, each time with a new token, until `until`.
 */
export function sendSignInLink(
  deps: SignInMailDeps,
): JobHandler<z.infer<typeof signInJob.payload>> {
  return async ({ payload }) => {
    const now = deps.now ?? Date.now;
    if (now() >= payload.until) return { skipped: 'sign-in link expired' };
    const secret = await deps.secret();
    const operator = (await listOperators(deps.db)).find(
      ({ email }) => addressHash(email, secret) === payload.emailHash,
    );
    if (!operator) return { skipped: 'not an operator' };
    if (!deps.send) {
      log.warn({ event: 'console.sign_in_mail_unconfigured' });
      return { skipped: 'no mail channel' };
    }
    const pending = payload.pending
      ? await findPendingAct(deps.db, payload.pending, operator.id, new Date(now()))
      : null;
    const token = await makeSignInToken(await deps.auth(), operator.email);
    const url = new URL(SIGN_IN_CONFIRM_PATH, deps.origin);
    url.searchParams.set('token', token);
    if (pending) url.searchParams.set('pending', pending.id);
    const opens = pending
      ? consoleText.mail.opensPending(describePendingAct(pending))
      : consoleText.mail.opensHome(new URL(CONSOLE_PATH, deps.origin).href);
    await deps.send(
      {
        from: deps.from,
        to: operator.email,
        subject: consoleText.mail.subject,
        text: consoleText.mail.text(url.href, opens),
      },
      { audience: 'staff' },
    );
  };
}

/**
 * Signs in with the link's `token` (the confirmation page's POST, never the link's GET):
 * better-auth's verify, called on the server, uses the token up and answers a redirect, with the
 * session cookie, to the page of the pending act `pending` (an id; that page shows it only to
 * the operator who asked for it, else the inbox) or to the inbox, or to the sign-in page with
 * `?link=failed` when the token is unknown, used or expired. No other place can be asked for.
 */
export async function confirmSignIn(
  auth: ConsoleAuth,
  token: string,
  pending?: string,
): Promise<Response> {
  const failed = `${SIGN_IN_PATH}?link=failed`;
  if (!token || token.length > 200) return redirectTo(auth, failed);
  return auth.api.magicLinkVerify({
    query: {
      token,
      callbackURL: isPendingActId(pending) ? pendingActPath(pending) : CONSOLE_PATH,
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
