'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  cancelFromForm,
  rescheduleFromForm,
  MANAGE_COOKIE,
  MANAGE_PATH,
} from '@/server/features/demos';
import type { ManageOutcome } from '@/server/features/demos/types';
import { visitorFormAction } from '@/server/platform/http/form-post';

/**
 * Runs a manage-page change for the manage token of the page's cookie (MANAGE_COOKIE; never a
 * form field or the URL) and redirects back to the page with its outcome (`unavailable` when
 * the database failed): a plain POST, then GET, without JavaScript.
 */
async function changeAndReturn(
  change: (token: string, client: string) => Promise<ManageOutcome>,
): Promise<never> {
  const token = (await cookies()).get(MANAGE_COOKIE)?.value ?? '';
  const outcome = await visitorFormAction<ManageOutcome | 'unavailable'>(
    await headers(),
    { failed: 'demo.change_failed', unavailable: () => 'unavailable' },
    ({ request }) => change(token, request.clientAddress),
  );
  redirect(`${MANAGE_PATH}?${new URLSearchParams({ outcome })}`);
}

/**
 * The manage page's "pick another time" action: moves the demo of the page's
 * manage token to the chosen `start` and returns to the page with the outcome (`rescheduled`,
 * `gone` with fresh times, `closed`, `invalid`, `limited`, `unavailable`). Takes the booking
 * form's previous state first (not used), like bookDemoTime.
 */
export async function rescheduleDemoTime(
  _previous: string | null,
  formData: FormData,
): Promise<never> {
  return changeAndReturn((token, client) =>
    rescheduleFromForm(token, String(formData.get('start') ?? ''), client),
  );
}

/**
 * The manage page's cancel action: cancels the demo of the page's manage token
 * and returns to the page with the outcome (`cancelled`, `closed`, `invalid`, `limited`,
 * `unavailable`). Takes a bound first argument (`null`) before the form (see bookDemoTime); the
 * form carries nothing it reads.
 */
export async function cancelDemoBooking(_bound: null, _form: FormData): Promise<never> {
  return changeAndReturn(cancelFromForm);
}
