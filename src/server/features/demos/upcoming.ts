import 'server-only';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { demoBookings } from './schema';
import { leads } from '../contact';
import { liveBooking } from './bookings';
import { cancelDemo } from './commands/cancel';
import type { BookingSettings, OperatorCancel, UpcomingDemo } from './types';

/**
 * The upcoming demos as an operator sees them, and cancelling one by its enquiry's reference, for
 * the console and the `leads` CLI (`leads demos`, `leads cancel`); the cancellation that comes
 * before an erasure is in personal-data.ts.
 */

/** Live demos that have not started at `now` (ms), soonest first, for `leads demos`. */
export async function listUpcomingDemos(db: Db, now: number = Date.now()): Promise<UpcomingDemo[]> {
  const rows = await db
    .select()
    .from(demoBookings)
    .innerJoin(leads, eq(leads.id, demoBookings.leadId))
    .where(and(eq(demoBookings.status, 'booked'), gt(demoBookings.startsAt, new Date(now))))
    .orderBy(asc(demoBookings.startsAt));
  return rows.map(({ demo_bookings: booking, leads: lead }) => ({
    reference: lead.reference,
    booking,
    visitor: {
      firstName: lead.firstName,
      lastName: lead.lastName,
      email: lead.email,
      organization: lead.organization,
    },
  }));
}

/**
 * Cancels the upcoming live demo of the enquiry `reference` at `now` (ms) exactly as the visitor's
 * cancel does (cancelDemo: cancellations to the visitor and the host, the `demo.cancelled` event),
 * for `leads cancel`. `not-found` for an unknown reference, `no-live-demo` when
 * it has none that has not started.
 * @throws on database errors (nothing is then changed).
 */
export async function cancelDemoOf(
  db: Db,
  settings: BookingSettings,
  reference: string,
  now: number = Date.now(),
): Promise<OperatorCancel> {
  const [lead] = await db
    .select({ id: leads.id, email: leads.email })
    .from(leads)
    .where(eq(leads.reference, reference.trim().toUpperCase()));
  if (!lead) return { outcome: 'not-found' };
  const booking = await liveBooking(db, lead.id);
  const result = booking ? await cancelDemo(db, settings, booking.id, now) : undefined;
  return result?.outcome === 'cancelled'
    ? { outcome: 'cancelled', booking: result.booking, visitorEmail: lead.email }
    : { outcome: 'no-live-demo' };
}
