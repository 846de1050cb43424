import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { isUniqueViolation } from '../../../platform/db/errors';
import { demoBookings } from '../schema';
import { leads } from '../../contact';
import { findBooking, sameHost } from '../bookings';
import { displaceHoldsOfInbox, isHeldAt, releaseLapsedHolds } from '../holds';
import { hasRoomOnDay, reachedCap } from '../limits';
import type { BookingSettings, ConfirmResult, DemoBooking } from '../types';
import { freeSlots } from '../views/slots';
import { announceChange } from './announce';

/**
 * Confirms the held booking `bookingId` at `now` (ms), from the visitor's e-mailed link: status
 * `held` becomes `booked` and the booking is announced as any booking is (invitations to the
 * visitor and the host, the reminder, the `demo.booked` event: announceChange), in one
 * transaction, which also cancels the unconfirmed holds of other enquiries of the same inbox
 * (displaceHoldsOfInbox: a stranger's hold with the address blocks nobody).
 * - Within the hold nothing else is checked: the time and the caps were taken when it was held.
 * - After the hold lapsed, the visitor gets the same time with the same host only when it is still
 *   offered (computeSlots at `now`), the caps and the host's day still have room (counted under
 *   their locks, limits.ts) and nobody took it meanwhile (the partial unique indexes; lapsed holds
 *   in the way, not this one, are released first); else `expired`.
 * - A confirmed booking gives `already-confirmed` and changes nothing; of two concurrent
 *   confirmations one announces. A cancelled booking is `expired`; an unknown one `unknown`.
 * @throws on database errors (nothing is then changed).
 */
export async function confirmHold(
  db: Db,
  settings: BookingSettings,
  bookingId: string,
  now: number = Date.now(),
): Promise<ConfirmResult> {
  const held = await findBooking(db, bookingId);
  if (!held) return { outcome: 'unknown' };
  if (held.status === 'booked') return { outcome: 'already-confirmed', booking: held };
  if (held.status === 'cancelled') return { outcome: 'expired' };
  const lapsed = !isHeldAt(held, now);
  if (lapsed && !(await stillOffered(db, settings, held, now))) return { outcome: 'expired' };
  try {
    const confirmed = await db.transaction(async (tx) => {
      if (lapsed && !(await hasRoomFor(tx, settings, held, now))) return undefined;
      const [row] = await tx
        .update(demoBookings)
        .set({ status: 'booked', heldUntil: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(demoBookings.id, held.id),
            inArray(demoBookings.status, lapsed ? ['held', 'expired'] : ['held']),
          ),
        )
        .returning();
      if (row) {
        await displaceHoldsOfInbox(tx, row);
        await announceChange(tx, { kind: 'booked', booking: row }, settings, now);
      }
      return row;
    });
    if (confirmed) return { outcome: 'confirmed', booking: confirmed };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const after = await findBooking(db, bookingId);
  return after?.status === 'booked'
    ? { outcome: 'already-confirmed', booking: after }
    : { outcome: 'expired' };
}

/** Whether the lapsed hold's time is offered at `now` (ms) with its host. */
async function stillOffered(
  db: Db,
  settings: BookingSettings,
  held: DemoBooking,
  now: number,
): Promise<boolean> {
  const start = held.startsAt.getTime();
  return (await freeSlots(db, settings, now)).some(
    (slot) => slot.start === start && slot.hosts.some((host) => sameHost(host, held.hostEmail)),
  );
}

/**
 * Whether the caps and the host's day still have room for the lapsed hold `held` at `now` (ms),
 * holding their locks until the end of `tx` (as a booking does), with the lapsed holds in its
 * way released.
 */
async function hasRoomFor(
  tx: Db,
  settings: BookingSettings,
  held: DemoBooking,
  now: number,
): Promise<boolean> {
  const [lead] = await tx
    .select({ email: leads.email })
    .from(leads)
    .where(eq(leads.id, held.leadId));
  if (!lead) return false;
  const visitor = {
    email: lead.email,
    leadId: held.leadId,
    clientHash: held.clientHash,
    clientGroup: held.clientGroup,
  };
  if (await reachedCap(tx, settings.caps, visitor, now)) return false;
  const start = held.startsAt.getTime();
  if (!(await hasRoomOnDay(tx, settings.rules, held.hostEmail, start, now, held.id))) return false;
  await releaseLapsedHolds(
    tx,
    { hostEmail: held.hostEmail, start, leadId: held.leadId },
    now,
    held.id,
  );
  return true;
}
