import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import { readPrivacyValues, type PrivacyFormState } from '@/lib/privacy-request-schema';
import { getDatabase } from '../../platform/db';
import { getEnv } from '../../platform/env';
import { visitorFormAction } from '../../platform/http/form-post';
import { nudgeQueueWorker } from '../../delivery/queue/runtime';
import { getSiteSecret } from '../../platform/security/site-secret';
import { askForPrivacyLink } from './ask';
import { confirmPrivacyRequest, type ConfirmResult } from './confirm';

/**
 * The privacy requests with the site's configuration: the form's server action and the
 * confirmation page's (the operator's erasure is in operator.ts).
 */

/**
 * Asks for a privacy link with the site's configuration, for the server action (`headers` are the
 * request's). Never throws: a database failure is the `unavailable` message, what was typed kept.
 */
export function requestPrivacyLink(
  formData: FormData,
  headers: Headers,
): Promise<PrivacyFormState> {
  return visitorFormAction<PrivacyFormState>(
    headers,
    {
      failed: 'privacy.ask_failed',
      unavailable: () => ({
        status: 'invalid',
        message: privacyRequestTexts.unavailable,
        errors: {},
        values: readPrivacyValues(formData),
      }),
    },
    async ({ request, env, rateLimit, allowedOrigins }) => {
      const { db } = await getDatabase();
      return askForPrivacyLink(formData, request, {
        db,
        secret: await getSiteSecret(db, env.FORM_SECRET),
        rateLimit,
        allowedOrigins,
        onQueued: nudgeQueueWorker,
      });
    },
  );
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
