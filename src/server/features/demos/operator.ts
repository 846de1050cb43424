import 'server-only';
import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { demoBookings } from './schema';
import { jobs } from '../../delivery/queue/schema';
import { leads } from '../contact/schema';
import { liveBooking } from './bookings';
import { cancelDemo } from './commands/cancel';
import { demoMailJob } from './mails/mail-jobs';
import { demoWebhookJob } from './webhook-events';
import type { BookingSettings, OperatorCancel, UpcomingDemo } from './types';

/**
 * The operator's demo operations, for the `leads` CLI (`leads demos`, `leads cancel`, and the
 * cancellation that comes before an erasure, src/server/privacy/erase.ts).
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

/**
 * Cancels the upcoming live demo of each of the enquiries `leadIds` at `now` (ms) exactly as the
 * visitor's cancel does (cancelDemo: `METHOD:CANCEL` to the visitor and the host, the
 * `demo.cancelled` event); returns how many were cancelled.
 * @throws on database errors (the demos cancelled before the error stay cancelled).
 */
export async function cancelDemosOf(
  db: Db,
  settings: BookingSettings,
  leadIds: readonly string[],
  now: number = Date.now(),
): Promise<number> {
  let cancelled = 0;
  for (const leadId of leadIds) {
    const booking = await liveBooking(db, leadId);
    if (!booking) continue;
    const result = await cancelDemo(db, settings, booking.id, now);
    if (result.outcome === 'cancelled') cancelled += 1;
  }
  return cancelled;
}

/**
 * How many cancellations of the demos of the enquiries `leadIds` are still to be delivered: their
 * cancellation e-mails and `demo.cancelled` events, queued or being sent (a delivery that failed
 * for good counts as done: the alarm reports it).
 */
export async function unsentCancellations(db: Db, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(
        inArray(jobs.owner, [...leadIds]),
        inArray(jobs.status, ['pending', 'sending']),
        or(
          and(
            eq(jobs.kind, demoMailJob.name),
            inArray(sql`${jobs.payload}->>'mail'`, ['visitor-cancel', 'host-cancel']),
          ),
          and(
            eq(jobs.kind, demoWebhookJob.name),
            eq(sql`${jobs.payload}->'event'->>'type'`, 'demo.cancelled'),
          ),
        ),
      ),
    );
  return Number(row?.count ?? 0);
}
