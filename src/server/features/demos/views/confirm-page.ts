import 'server-only';
import { formatTime } from '@/lib/demo/display';
import type { Db } from '../../../platform/db';
import { getDemoEnv, getDemoRuntime } from '../env';
import { findBooking } from '../bookings';
import { isHeldAt } from '../holds';
import { isBookingOn } from '../rules';
import { verifyConfirmToken } from '../tokens';
import type { ConfirmView } from '../types';
import { bookedDemoOf, type DemoDisplayEnv } from './booked-demo';

/**
 * The confirmation page's data (/contact-us/demo/confirm): the held booking a confirm link names.
 * Reading it changes nothing (a mail scanner opening the link confirms nothing); the page's
 * button posts the confirmation (forms.ts).
 */

/**
 * What the confirmation page shows for the booking `bookingId` at `now` (ms): `pending` (held;
 * `lapsed` once its hold has run out or it was released, with the hold's end in `DEMO_TIMEZONE`),
 * `confirmed`, `released` (cancelled), or `invalid` for an unknown booking. Reads only.
 * @throws on database errors.
 */
export async function confirmViewOf(
  db: Db,
  env: DemoDisplayEnv,
  bookingId: string,
  now: number,
): Promise<ConfirmView> {
  const booking = await findBooking(db, bookingId);
  if (!booking) return { kind: 'invalid' };
  const demo = bookedDemoOf(booking, env, 'proved');
  if (booking.status === 'booked') return { kind: 'confirmed', demo };
  if (booking.status === 'cancelled') return { kind: 'released', demo };
  return {
    kind: 'pending',
    demo,
    heldUntil: formatTime((booking.heldUntil ?? booking.createdAt).getTime(), env.DEMO_TIMEZONE),
    lapsed: !isHeldAt(booking, now),
  };
}

/**
 * The confirmation page for the confirm token `token` (from the link's query) now: `invalid` when
 * booking is off or the token is bad or expired, else confirmViewOf.
 * @throws on database errors.
 */
export async function confirmView(token: unknown): Promise<ConfirmView> {
  const env = getDemoEnv();
  if (!isBookingOn(env)) return { kind: 'invalid' };
  const { db, secret } = await getDemoRuntime();
  const bookingId = verifyConfirmToken(token, secret);
  return bookingId ? confirmViewOf(db, env, bookingId, Date.now()) : { kind: 'invalid' };
}
