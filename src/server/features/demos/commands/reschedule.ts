import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { isUniqueViolation } from '../../../platform/db/errors';
import { demoBookings } from '../schema';
import { findBooking, isChangeable, sameHost } from '../bookings';
import { hostCalendars, hostsByLoad } from '../calendars';
import { releaseLapsedHolds } from '../holds';
import { hasRoomOnDay } from '../limits';
import type { BookingSettings, ChangeResult } from '../types';
import { rescheduleSlots } from '../views/slots';
import { announceChange } from './announce';

/**
 * Moves the live booking `bookingId` to the offered time `start` (ms) at `now`: the same row gets
 * the new time, its host if free then (else the free host with the fewest upcoming demos) and
 * `sequence` + 1, and announceChange queues the updated invitations, the old
 * host's cancellation when the host changed, a fresh reminder and the `demo.rescheduled` event, in
 * one transaction per host tried. The partial unique index of live demos per host and start
 * refuses a time another booking took meanwhile (on any instance; a lapsed hold there is released
 * first, holds.ts), and a host whose day already has `maxPerDay` other demos, counted under that
 * day's lock (limits.ts), is passed over: that host is skipped, and when none is left the result
 * is `slot-gone` with fresh times, the booking unchanged. A concurrent change of the same booking
 * makes this one update nothing (`slot-gone`).
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
          if (!(await hasRoomOnDay(tx, settings.rules, hostEmail, slot.start, now, bookingId)))
            return null;
          await releaseLapsedHolds(tx, { hostEmail, start: slot.start }, now);
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
        if (booking === null) continue;
        if (!booking) break;
        return { outcome: 'rescheduled', booking, previous };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
  return { outcome: 'slot-gone', slots: await rescheduleSlots(db, settings, previous, now) };
}
