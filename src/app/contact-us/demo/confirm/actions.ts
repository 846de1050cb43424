'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { isHttps } from '@/lib/security/transport';
import {
  confirmFromForm,
  BOOKING_COOKIE,
  BOOKING_TOKEN_MAX_AGE_MS,
  CONFIRM_PATH,
} from '@/server/features/demos';
import type { ConfirmOutcome } from '@/server/features/demos/types';
import { visitorFormAction } from '@/server/platform/http/form-post';

/**
 * The confirmation page's "Confirm my demo" action (a plain POST without JavaScript): confirms the
 * held booking of the confirm token the form carries. When it is confirmed (or already was), or
 * its hold lapsed and the time is gone, the enquiry's booking token goes into the booking page's
 * http-only cookie (as bookDemoTime sets it) and the visitor lands on /contact-us/demo, which shows
 * the booked demo, or fresh times with `?outcome=expired`. Otherwise back to the confirmation
 * page with the outcome (`invalid`, `limited`, `unavailable` when the database failed), the token
 * kept in the query where it came from so the button can be pressed again. Takes a bound first
 * argument (`null`) before the form, as the request guard requires (see bookDemoTime).
 */
export async function confirmDemoHold(_bound: null, formData: FormData): Promise<never> {
  const token = String(formData.get('token') ?? '');
  const requestHeaders = await headers();
  const result = await visitorFormAction<{
    outcome: ConfirmOutcome | 'unavailable';
    bookingToken?: string;
  }>(
    requestHeaders,
    { failed: 'demo.confirm_failed', unavailable: () => ({ outcome: 'unavailable' }) },
    ({ request }) => confirmFromForm(token, request.clientAddress),
  );
  if (result.bookingToken) {
    (await cookies()).set(BOOKING_COOKIE, result.bookingToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps({ url: '', headers: requestHeaders }),
      path: '/contact-us/demo',
      maxAge: BOOKING_TOKEN_MAX_AGE_MS / 1000,
    });
    redirect(
      result.outcome === 'expired' ? '/contact-us/demo?outcome=expired' : '/contact-us/demo',
    );
  }
  const query = new URLSearchParams({ outcome: result.outcome });
  if (result.outcome !== 'invalid') query.set('token', token);
  redirect(`${CONFIRM_PATH}?${query}`);
}
