import 'server-only';
import { and, eq, gt, sql } from 'drizzle-orm';
import { computeSlots, type Slot } from '@/lib/demo/slots';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { demoBookings } from '../db/schema';
import { announceChange } from './announce';
import { hostCalendars, hostsByLoad, type BookingSettings, type DemoBooking } from './booking';

/**
 * What a reschedule or cancellation did: `rescheduled` (with the booking before), `cancelled`,
 * `slot-gone` with the times free now (the booking is unchanged), or `not-live` when the booking is
 * unknown, cancelled or has started (it can no longer be changed).
 */
export type ChangeResult =
  | { outcome: 'rescheduled'; booking: DemoBooking; previous: DemoBooking }
  | { outcome: 'cancelled'; booking: DemoBooking }
  | { outcome: 'slot-gone'; slots: Slot[] }
  | { outcome: 'not-live' };

/** A booking by id, if any. */
export async function findBooking(db: Db, id: string): Promise<DemoBooking | undefined> {
  const [row] = await db.select().from(demoBookings).where(eq(demoBookings.id, id));
  return row;
}

/** Whether `booking` can still be changed at `now` (ms): booked and not yet started (issue 16, item 6). */
export function isChangeable(booking: DemoBooking, now: number): boolean {
  return booking.status === 'booked' && booking.startsAt.getTime() > now;
}

const sameHost = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The times `booking` can move to at `now` (ms): the free slots computed as if it were not booked
 * (its own time does not block its host), without its current start.
 */
export async function rescheduleSlots(
  db: Db,
  settings: BookingSettings,
  booking: DemoBooking,
  now: number = Date.now(),
): Promise<Slot[]> {
  const at = booking.startsAt.getTime();
  const calendars = (await hostCalendars(db, settings, now)).map((calendar) =>
    sameHost(calendar.email, booking.hostEmail)
      ? { ...calendar, bookings: calendar.bookings.filter((interval) => interval.start !== at) }
      : calendar,
  );
  return computeSlots(settings.rules, calendars, now).filter((slot) => slot.start !== at);
}

/**
 * Moves the live booking `bookingId` to the offered time `start` (ms) at `now` (issue 16, item 6):
 * the same row gets the new time, its host if free then (else the free host with the fewest
 * upcoming demos) and `sequence` + 1, and announceChange queues the updated invitations, the old
 * host's cancellation when the host changed, a fresh reminder and the `demo.rescheduled` event, in
 * one transaction per host tried. The partial unique index of live demos per host and start
 * refuses a time another booking took meanwhile (on any instance): that host is skipped, and when
 * none is left the result is `slot-gone` with fresh times, the booking unchanged. A concurrent
 * change of the same booking makes this one update nothing (`slot-gone`).
 * @throws on database errors other than that refusal (nothing is then changed).
 */
export async function rescheduleDemo(
  db: Db,
  settings: BookingSettings,
  bookingId: string,
  start: number,
  now: number = Date.now(),
): Promise<ChangeResult> {
  const previous = await findBooking(db, bookingId);
  if (!previous || !isChangeable(previous, now)) return { outcome: 'not-live' };
  const slot = (await rescheduleSlots(db, settings, previous, now)).find(
    (candidate) => candidate.start === start,
  );
  if (slot) {
    const calendars = await hostCalendars(db, settings, now);
    const hosts = hostsByLoad(slot.hosts, calendars, now).sort(
      (a, b) => Number(sameHost(b, previous.hostEmail)) - Number(sameHost(a, previous.hostEmail)),
    );
    for (const hostEmail of hosts) {
      try {
        const booking = await db.transaction(async (tx) => {
          const [updated] = await tx
            .update(demoBookings)
            .set({
              hostEmail,
              startsAt: new Date(slot.start),
              endsAt: new Date(slot.end),
              sequence: sql`${demoBookings.sequence} + 1`,
              updatedAt: sql`now()`,
            })
            .where(
              and(
                eq(demoBookings.id, bookingId),
                eq(demoBookings.status, 'booked'),
                eq(demoBookings.sequence, previous.sequence),
              ),
            )
            .returning();
          if (updated)
            await announceChange(
              tx,
              { kind: 'rescheduled', booking: updated, previous },
              settings,
              now,
            );
          return updated;
        });
        if (!booking) break;
        return { outcome: 'rescheduled', booking, previous };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
  return { outcome: 'slot-gone', slots: await rescheduleSlots(db, settings, previous, now) };
}

/**
 * Cancels the live booking `bookingId` at `now` (ms), before it starts (issue 16, item 6): status
 * `cancelled` and `sequence` + 1 in one transaction with the cancellations to the visitor and the
 * host and the `demo.cancelled` event (announceChange); the time is free again at once (the unique
 * index covers live demos only) and no reminder is sent. `not-live` when it is unknown, already
 * cancelled or has started; of two concurrent cancellations one wins.
 * @throws on database errors (nothing is then changed).
 */
export async function cancelDemo(
  db: Db,
  settings: BookingSettings,
  bookingId: string,
  now: number = Date.now(),
): Promise<ChangeResult> {
  const booking = await db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(demoBookings)
      .set({
        status: 'cancelled',
        sequence: sql`${demoBookings.sequence} + 1`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(demoBookings.id, bookingId),
          eq(demoBookings.status, 'booked'),
          gt(demoBookings.startsAt, new Date(now)),
        ),
      )
      .returning();
    if (cancelled)
      await announceChange(tx, { kind: 'cancelled', booking: cancelled }, settings, now);
    return cancelled;
  });
  return booking ? { outcome: 'cancelled', booking } : { outcome: 'not-live' };
}
