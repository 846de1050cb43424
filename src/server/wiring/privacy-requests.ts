import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import { readPrivacyValues, type PrivacyFormState } from '@/lib/privacy-request-schema';
import { visitorFormAction } from '../platform/http/form-post';
import { nudgeQueueWorker } from '../delivery/queue/runtime';
import { mailBudgetLimits } from '../platform/people/mail-budget';
import { getRuntime } from '../platform/runtime';
import { issueFormToken } from '../platform/security/form-token';
import { errorFacts, log } from '../platform/log';
import { askForPrivacyLink, confirmPrivacyRequest, type ConfirmResult } from '../features/privacy';

/**
 * The privacy requests with the site's configuration and its registrations of personal data: the
 * form's server action and the confirmation page's (the operator's erasure is in erasure.ts).
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
      const { db, secret } = await getRuntime();
      return askForPrivacyLink(formData, request, {
        db,
        secret,
        rateLimit,
        mailBudget: mailBudgetLimits(env),
        allowedOrigins,
        onQueued: nudgeQueueWorker,
      });
    },
  );
}

/** Confirms the request of a link's `token` (the button's POST) and wakes the queue worker. */
export async function confirmPrivacyLink(token: unknown): Promise<ConfirmResult> {
  const { db, secret } = await getRuntime();
  const result = await confirmPrivacyRequest(db, token, secret);
  if (result.outcome === 'confirmed') nudgeQueueWorker();
  return result;
}

/**
 * A fresh form token for the privacy-request form (the contact form's kind: signed, with a minimum
 * age, binding the proof of work), or null when the database, which holds the generated secret, is
 * unavailable (the form then shows it cannot be sent). Never throws.
 */
export async function privacyFormToken(): Promise<string | null> {
  try {
    const { secret } = await getRuntime();
    return issueFormToken(secret);
  } catch (error) {
    log.error({ event: 'privacy.token_failed', error: errorFacts(error) });
    return null;
  }
}
