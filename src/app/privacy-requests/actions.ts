'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { PrivacyFormState } from '@/lib/privacy-request-schema';
import { visitorFormAction } from '@/server/platform/http/form-post';
import { confirmPrivacyLink, requestPrivacyLink } from '@/server/wiring/privacy-requests';

/**
 * The privacy-request form's server action (through `useActionState`, so it also works as a plain
 * POST without JavaScript): validation, rate limit and the link e-mail live in src/server/privacy.
 * Never throws.
 */
export async function askPrivacyLink(
  _previous: PrivacyFormState,
  formData: FormData,
): Promise<PrivacyFormState> {
  return requestPrivacyLink(formData, await headers());
}

/**
 * The confirmation page's button: confirms the request of the link's token (a POST: opening the
 * link changes nothing) and returns to the page with the outcome (`confirmed` with the request's
 * reference, `used`, `expired`, `invalid`, `unavailable`): POST, then GET, without JavaScript.
 * Bound to `null` by the page, so that, like every action of the site, it takes two arguments (the
 * shape the request guard admits, src/lib/security/action-form.ts).
 */
export async function confirmPrivacyRequestAction(
  _bound: null,
  formData: FormData,
): Promise<never> {
  const query = await visitorFormAction<Record<string, string>>(
    await headers(),
    { failed: 'privacy.confirm_failed', unavailable: () => ({ outcome: 'unavailable' }) },
    async () => {
      const result = await confirmPrivacyLink(formData.get('token'));
      const query: Record<string, string> =
        result.outcome === 'confirmed'
          ? { outcome: 'confirmed', reference: result.reference }
          : { outcome: result.outcome };
      return query;
    },
  );
  redirect(`/privacy-requests/confirm?${new URLSearchParams(query)}`);
}
