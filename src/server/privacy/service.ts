import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import { readPrivacyValues, type PrivacyFormState } from '@/lib/privacy-request-schema';
import { getDatabase } from '../db';
import type { Db } from '../db';
import type { Actor } from '../console/audit';
import { bookingSettings, isBookingOn } from '../demos/rules';
import { createSmtpSender } from '../email/transport';
import { getEnv, type Env } from '../env';
import { clientAddress } from '../http/client-address';
import { errorFacts, log } from '../log';
import { nudgeQueueWorker } from '../queue/runtime';
import { getSiteSecret } from '../security/site-secret';
import { askForPrivacyLink } from './ask';
import { confirmPrivacyRequest, type ConfirmResult } from './confirm';
import { eraseAddress, type ErasureDeps, type ErasureResult } from './erase';
import { buildErasedMail } from './mails';

/**
 * The privacy requests with the site's configuration: the form's server action, the confirmation
 * page's, and the operator's erasure (console and `leads erase`).
 */

/**
 * Asks for a privacy link with the site's configuration, for the server action (`headers` are the
 * request's). Never throws: a database failure is the `unavailable` message, what was typed kept.
 */
export async function requestPrivacyLink(
  formData: FormData,
  headers: Headers,
): Promise<PrivacyFormState> {
  try {
    const env = getEnv();
    const { db } = await getDatabase();
    return await askForPrivacyLink(
      formData,
      {
        origin: headers.get('origin'),
        host: headers.get('x-forwarded-host') ?? headers.get('host'),
        clientAddress: clientAddress(headers, env.TRUST_PROXY),
      },
      {
        db,
        secret: await getSiteSecret(db, env.FORM_SECRET),
        rateLimit: { max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000 },
        allowedOrigins: env.SITE_URL ? [new URL(env.SITE_URL).origin] : [],
        onQueued: nudgeQueueWorker,
      },
    );
  } catch (error) {
    log.error({ event: 'privacy.ask_failed', error: errorFacts(error) });
    return {
      status: 'invalid',
      message: privacyRequestTexts.unavailable,
      errors: {},
      values: readPrivacyValues(formData),
    };
  }
}

/** Confirms the request of a link's `token` (the button's POST) and wakes the queue worker. */
export async function confirmPrivacyLink(token: unknown): Promise<ConfirmResult> {
  const { db } = await getDatabase();
  const result = await confirmPrivacyRequest(
    db,
    token,
    await getSiteSecret(db, getEnv().FORM_SECRET),
  );
  if (result.outcome === 'confirmed') nudgeQueueWorker();
  return result;
}

/** The erasure's settings from the configuration, with the site secret of `db`. */
export async function erasureDeps(db: Db, env: Env = getEnv()): Promise<ErasureDeps> {
  return {
    secret: await getSiteSecret(db, env.FORM_SECRET),
    webhookUrls: env.WEBHOOK_URLS,
    settings: isBookingOn(env) ? bookingSettings(env) : undefined,
  };
}

/**
 * An operator's erasure of everything held for `email` (DPDP Act s.12, asked by other means than
 * the form), as `actor` (`cli`, or the admin in the console): the same eraseAddress as a visitor's
 * request, recorded as a request of its own and audited. With `SMTP_URL`, the person is e-mailed
 * the confirmation before the address is suppressed. Waits up to `waitMs` for the cancellations of
 * live demos (sent by the running site's queue worker).
 * @throws on database and SMTP errors (nothing is then erased).
 */
export async function eraseAs(
  db: Db,
  actor: Actor,
  email: string,
  { waitMs, now }: { waitMs?: number; now?: number } = {},
): Promise<ErasureResult> {
  const env = getEnv();
  const send = env.SMTP_URL ? createSmtpSender(env.SMTP_URL) : undefined;
  return eraseAddress(
    db,
    await erasureDeps(db, env),
    { email, kind: 'erase', actor },
    {
      waitMs,
      now,
      notify: send
        ? ({ reference, ...counts }) =>
            send(
              buildErasedMail(email.trim(), reference, 'erase', counts, { from: env.LEADS_FROM }),
            )
        : undefined,
    },
  );
}
