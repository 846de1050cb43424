'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { isHttps } from '@/lib/security/transport';
import { BOOKING_COOKIE, bookFromForm } from '@/server/demo/service';
import { errorFacts, log } from '@/server/log';

/**
 * The booking form's server action (issue 16; a plain POST without JavaScript): books the chosen
 * time for the enquiry of the signed token, keeps the token in an http-only cookie scoped to
 * /contact-us/demo (never in the URL), and redirects there: the page shows the booked demo, or
 * fresh times with `?outcome=gone` when the time was just taken (`invalid` for a bad request,
 * `unavailable` when the database failed).
 */
export async function bookDemoTime(formData: FormData): Promise<never> {
  const token = String(formData.get('token') ?? '');
  let outcome: 'booked' | 'gone' | 'invalid' | 'unavailable';
  try {
    outcome = await bookFromForm(token, String(formData.get('start') ?? ''));
  } catch (error) {
    log.error({ event: 'demo.book_failed', error: errorFacts(error) });
    outcome = 'unavailable';
  }
  const requestHeaders = await headers();
  (await cookies()).set(BOOKING_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps({ url: '', headers: requestHeaders }),
    path: '/contact-us/demo',
    maxAge: 24 * 60 * 60,
  });
  redirect(outcome === 'booked' ? '/contact-us/demo' : `/contact-us/demo?outcome=${outcome}`);
}
