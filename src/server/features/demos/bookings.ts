import 'server-only';
import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { leads } from '../contact';
import { demoBookings } from './schema';
import { liveAt } from './holds';
import type { DemoBooking } from './types';

/** Stored bookings: how the other parts find one and tell whether it can still change. */

/** The live booking of a lead, if any (one live demo per enquiry). */
export async function liveBooking(db: Db, leadId: string): Promise<DemoBooking | undefined> {
  const [row] = await db
    .select()
    .from(demoBookings)
    .where(and(eq(demoBookings.leadId, leadId), eq(demoBookings.status, 'booked')));
  return row;
}

/**
 * The lead's booking that holds a time at `now` (ms): its live demo, or its hold that has not
 * lapsed (holds.ts), if any.
 */
export async function currentBooking(
  db: Db,
  leadId: string,
  now: number,
): Promise<DemoBooking | undefined> {
  const [row] = await db
    .select()
    .from(demoBookings)
    .where(and(eq(demoBookings.leadId, leadId), liveAt(now)));
  return row;
}

/**
 * The time the quarantined enquiry `leadId` chose (status `requested`, kept without holding it),
 * while the page would still show a lead's hold of it at `now` (ms), if any.
 */
export async function requestedBooking(
  db: Db,
  leadId: string,
  now: number,
): Promise<DemoBooking | undefined> {
  const [row] = await db
    .select()
    .from(demoBookings)
    .where(
      and(
        eq(demoBookings.leadId, leadId),
        eq(demoBookings.status, 'requested'),
        gt(demoBookings.heldUntil, new Date(now)),
      ),
    );
  return row;
}

/** A booking by id, if any. */
export async function findBooking(db: Db, id: string): Promise<DemoBooking | undefined> {
  const [row] = await db.select().from(demoBookings).where(eq(demoBookings.id, id));
  return row;
}

/** Whether `booking` can still be rescheduled or cancelled at `now` (ms): booked and not yet started. */
export function isChangeable(booking: DemoBooking, now: number): boolean {
  return booking.status === 'booked' && booking.startsAt.getTime() > now;
}

/** Whether two host e-mails name the same host (e-mails compare without case). */
export const sameHost = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * A condition on `leads` (for the inbox's filter, contact/inbox.ts): the enquiry has (`true`) or has
 * not (`false`) a demo booking, live or cancelled.
 */
export function hasDemoBooking(has: boolean): SQL {
  const demo = sql`exists (select 1 from ${demoBookings} d where d.lead_id = ${leads}.id)`;
  return has ? demo : sql`not ${demo}`;
}
