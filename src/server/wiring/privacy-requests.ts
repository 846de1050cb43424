import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import { readPrivacyValues, type PrivacyFormState } from '@/lib/privacy-request-schema';
import { getDatabase } from '../platform/db';
import { getEnv } from '../platform/env';
import { formPostFacts, formRateLimit, siteOrigins } from '../platform/http/form-post';
import { errorFacts, log } from '../platform/log';
import { nudgeQueueWorker } from '../delivery/queue/runtime';
import { getSiteSecret } from '../platform/security/site-secret';
import { askForPrivacyLink } from '../features/privacy/ask';
import { confirmPrivacyRequest, type ConfirmResult } from '../features/privacy/confirm';
import { personalDataOf } from './personal-data';

/**
 * The privacy requests with the site's configuration and its registrations of personal data: the
 * form's server action and the confirmation page's (the operator's erasure is in erasure.ts).
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
    return await askForPrivacyLink(formData, formPostFacts(headers, env), {
      db,
      secret: await getSiteSecret(db, env.FORM_SECRET),
      rateLimit: formRateLimit(env),
      allowedOrigins: siteOrigins(env),
      holders: personalDataOf(env),
      onQueued: nudgeQueueWorker,
    });
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
