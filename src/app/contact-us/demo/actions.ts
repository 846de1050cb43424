'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { isHttps } from '@/lib/security/transport';
import {
  bookFromForm,
  BOOKING_COOKIE,
  BOOKING_TOKEN_MAX_AGE_MS,
  reRequestFromForm,
} from '@/server/features/demos';
import type { BookOutcome } from '@/server/features/demos/types';
import { visitorFormAction } from '@/server/platform/http/form-post';

/**
 * The booking form's server action (a plain POST without JavaScript): books the chosen
 * time for the enquiry of the signed token, keeps the token in an http-only cookie scoped to
 * /contact-us/demo (never in the URL), and redirects there: the page shows the booked (or, with
 * `DEMO_CONFIRM_EMAIL`, held) demo, or
 * fresh times with `?outcome=gone` when the time was just taken (`invalid` for a bad request,
 * `limited` past the client's booking limit, `capped` past either cap of upcoming demos,
 * `unavailable` when the database failed); but for `gone`, `start` carries the chosen time back
 * so the form keeps it.
 * Takes the form's previous state first (`useActionState`'s: null, or the message of a call that
 * failed in the browser; not used) before the form, like every action of this site: the request
 * guard (src/lib/security/action-form.ts) accepts only actions posted as (bound value, form), so an
 * action can never receive the form where it expects something else.
 */
export async function bookDemoTime(_previous: string | null, formData: FormData): Promise<never> {
  const token = String(formData.get('token') ?? '');
  const requestHeaders = await headers();
  const start = String(formData.get('start') ?? '');
  const outcome = await visitorFormAction<BookOutcome | 'unavailable'>(
    requestHeaders,
    { failed: 'demo.book_failed', unavailable: () => 'unavailable' },
    ({ request }) => bookFromForm(token, start, request.clientAddress),
  );
  (await cookies()).set(BOOKING_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps({ url: '', headers: requestHeaders }),
    path: '/contact-us/demo',
    maxAge: BOOKING_TOKEN_MAX_AGE_MS / 1000,
  });
  if (outcome === 'booked' || outcome === 'held') redirect('/contact-us/demo');
  const query = new URLSearchParams({ outcome });
  if (outcome !== 'gone' && Number.isFinite(Date.parse(start))) query.set('start', start);
  redirect(`/contact-us/demo?${query}`);
}

/** A corrected address as the contact form accepts one (at most 254 characters). */
const correctedAddress = z.email().max(254);

/**
 * The held step's two forms (plain POSTs without JavaScript): `intent` `resend` has the request to
 * confirm sent again, `correct` sends it to the corrected `email` instead (reRequestFromForm).
 * The enquiry comes from the booking cookie set when the time was booked. Redirects to
 * /contact-us/demo with `?outcome=sent` whatever the site did (`bad-address`, `limited`, `invalid`,
 * `unavailable` otherwise). Takes a bound first argument (`null`) before the form, as the request
 * guard requires (see bookDemoTime).
 */
export async function reRequestConfirmation(_bound: null, formData: FormData): Promise<never> {
  const token = (await cookies()).get(BOOKING_COOKIE)?.value ?? '';
  const intent = formData.get('intent');
  const email = correctedAddress.safeParse(String(formData.get('email') ?? '').trim());
  if (intent === 'correct' && !email.success) redirect('/contact-us/demo?outcome=bad-address');
  const outcome = await visitorFormAction<'sent' | 'invalid' | 'limited' | 'unavailable'>(
    await headers(),
    { failed: 'demo.re_request_failed', unavailable: () => 'unavailable' },
    ({ request }) =>
      reRequestFromForm(
        token,
        intent === 'correct' && email.success
          ? { action: 'correct', email: email.data }
          : { action: 'resend' },
        request.clientAddress,
      ),
  );
  redirect(`/contact-us/demo?outcome=${outcome}`);
}
