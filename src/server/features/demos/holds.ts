import 'server-only';
import { and, eq, gt, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { leads } from '../contact';
import type { Db } from '../../platform/db';
import { demoBookings } from './schema';
import type { DemoBooking } from './types';

/**
 * Holds (`DEMO_CONFIRM_EMAIL`): a booking waiting for the visitor to confirm it by e-mail keeps
 * its time from others for HOLD_MS, status `held` with `held_until`. A lapsed hold frees its time
 * by the clock alone: every query that decides what is free reads liveAt with the caller's `now`.
 * The partial unique indexes of demo_bookings cannot read the clock, so they cover every `held`
 * row; a booking that wants a lapsed hold's time (or the enquiry of one) first marks it `expired`
 * inside its own transaction (releaseLapsedHolds), after taking its locks.
 */

/** How long a booking is held for the visitor to confirm it, in minutes (the pages and e-mails say it). */
export const HOLD_MINUTES = 30;

/** How long a booking is held for the visitor to confirm it (ms): HOLD_MINUTES. */
export const HOLD_MS = HOLD_MINUTES * 60_000;

/** The bookings live at `now` (ms): `booked`, or `held` with `held_until` after `now`. */
export function liveAt(now: number): SQL {
  return or(
    eq(demoBookings.status, 'booked'),
    and(eq(demoBookings.status, 'held'), gt(demoBookings.heldUntil, new Date(now))),
  )!;
}

/** Whether `booking` is a hold that has not lapsed at `now` (ms). */
export function isHeldAt(booking: DemoBooking, now: number): boolean {
  return booking.status === 'held' && (booking.heldUntil?.getTime() ?? 0) > now;
}

/**
 * Marks `expired`, in `tx`, the holds lapsed at `now` (ms) that would keep a booking of
 * `hostEmail` at `start` (ms), or a second live booking of the lead `leadId`, out of the partial
 * unique indexes; the booking `keepId` (a hold being confirmed late) is left alone. Two
 * transactions releasing the same hold both succeed: the second finds it no longer `held`.
 */
export async function releaseLapsedHolds(
  tx: Db,
  target: { hostEmail: string; start: number; leadId?: string },
  now: number,
  keepId?: string,
): Promise<void> {
  await tx
    .update(demoBookings)
    .set({ status: 'expired', updatedAt: sql`now()` })
    .where(
      and(
        eq(demoBookings.status, 'held'),
        lte(demoBookings.heldUntil, new Date(now)),
        or(
          and(
            eq(demoBookings.hostEmail, target.hostEmail),
            eq(demoBookings.startsAt, new Date(target.start)),
          ),
          target.leadId ? eq(demoBookings.leadId, target.leadId) : undefined,
        ),
        keepId ? ne(demoBookings.id, keepId) : undefined,
      ),
    );
}

/**
 * Cancels, in `tx`, the holds of the other enquiries of the inbox of the booking `confirmed`'s
 * enquiry (the same canonical address, leads.email_canonical): its owner has just confirmed a demo
 * by the link only they receive, so a hold made with their address by anyone else (a stranger's
 * time and text, waiting for a confirmation that would be theirs) gives way. Nothing is sent: a
 * hold announces nothing until confirmed.
 */
export async function displaceHoldsOfInbox(
  tx: Db,
  confirmed: Pick<DemoBooking, 'id' | 'leadId'>,
): Promise<void> {
  const sameInbox = tx
    .select({ id: leads.id })
    .from(leads)
    .where(
      sql`${leads.emailCanonical} = (select ${leads.emailCanonical} from ${leads} where ${leads.id} = ${confirmed.leadId})`,
    );
  await tx
    .update(demoBookings)
    .set({ status: 'cancelled', heldUntil: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(demoBookings.status, 'held'),
        ne(demoBookings.leadId, confirmed.leadId),
        inArray(demoBookings.leadId, sameInbox),
      ),
    );
}
