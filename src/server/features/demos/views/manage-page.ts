import 'server-only';
import { eq } from 'drizzle-orm';
import { offerDays } from '@/lib/demo/offer';
import { leads } from '../../contact';
import { getDemoEnv, getDemoRuntime } from '../env';
import { findBooking, isChangeable } from '../bookings';
import { bookingSettings, isBookingOn } from '../rules';
import { verifyManageToken } from '../tokens';
import type { ManageView } from '../types';
import { bookedDemoOf } from './booked-demo';
import { rescheduleSlots } from './slots';

/** The manage page's data (/contact-us/demo/manage): the demo a manage link names. */

/**
 * What a manage token opens: the booking it names (undefined for a bad token or a booking deleted
 * with its enquiry), with the environment, the database and the site secret; null when booking is
 * off. The page and its posts (forms.ts) both start here.
 */
export async function openManageLink(token: unknown) {
  const env = getDemoEnv();
  if (!isBookingOn(env)) return null;
  const { db, secret } = await getDemoRuntime();
  const id = verifyManageToken(token, secret);
  const booking = id ? await findBooking(db, id) : undefined;
  return { env, db, secret, booking };
}

/**
 * The manage page for the manage token `token` at `now` (ms).
 * @throws on database errors.
 */
export async function manageView(token: unknown, now: number = Date.now()): Promise<ManageView> {
  const found = await openManageLink(token);
  if (!found?.booking) return { kind: 'invalid' };
  const { env, db, booking } = found;
  const [lead] = await db
    .select({ reference: leads.reference, demoRequested: leads.demoRequested })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  if (!lead) return { kind: 'invalid' };
  const demo = bookedDemoOf(booking, env, 'proved');
  if (booking.status === 'cancelled') return { kind: 'cancelled', demo, reference: lead.reference };
  if (!isChangeable(booking, now)) return { kind: 'past', demo, reference: lead.reference };
  const slots = await rescheduleSlots(db, bookingSettings(env), booking, now);
  return {
    kind: 'live',
    demo,
    reference: lead.reference,
    offer: {
      // The page's posts read the token from its cookie: none goes into the HTML.
      token: '',
      demoRequested: lead.demoRequested,
      timeZone: env.DEMO_TIMEZONE,
      days: offerDays(slots, env.DEMO_TIMEZONE),
    },
  };
}
