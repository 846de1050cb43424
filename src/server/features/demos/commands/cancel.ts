import 'server-only';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { demoBookings } from '../schema';
import type { BookingSettings, ChangeResult } from '../types';
import { announceChange } from './announce';

/**
 * Cancels the live booking `bookingId` at `now` (ms), before it starts: status `cancelled` and
 * `sequence` + 1 in one transaction with the cancellations to the visitor and the host and the
 * `demo.cancelled` event (announceChange); the time is free again at once (the unique
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
