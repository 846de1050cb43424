import 'server-only';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { leads } from '../../contact';
import { sameHost } from '../bookings';
import { HOLD_MS, liveAt, releaseLapsedHolds } from '../holds';
import { hasRoomOnDay, reachedCap } from '../limits';
import { demoBookings } from '../schema';
import type { BookingSettings, DemoBooking } from '../types';
import { freeSlots } from '../views/slots';
import { announceChange } from './announce';

/**
 * Announces, in the release's transaction `tx` at `now` (ms), the time a quarantined enquiry
 * `leadId` chose while it waited for an operator (bookDemo keeps it as `requested`, holding
 * nothing): if it has not started and is still free (offered with its host, the caps and the
 * host's day with room, counted under their locks as a booking does), it is held now for HOLD_MS
 * with its request to confirm (or, when the address has its confirmed demo meanwhile, the notice
 * that one exists), counted by the budget of mails to unproven addresses, or, with confirmation
 * off, booked with its invitations, reminder and `demo.booked` event; otherwise it is marked
 * `expired` and nothing is sent. Bookings stored before requested times existed (booked or held
 * while quarantined) are announced as they are. Runs once per release: releaseSpam calls it only
 * when the enquiry left quarantine.
 * @throws on database errors (the release is then undone).
 */
export async function announceReleased(
  tx: Db,
  settings: BookingSettings,
  leadId: string,
  now: number,
): Promise<void> {
  const [found] = await tx
    .select({ booking: demoBookings, email: leads.email })
    .from(demoBookings)
    .innerJoin(leads, eq(leads.id, demoBookings.leadId))
    .where(
      and(
        eq(demoBookings.leadId, leadId),
        inArray(demoBookings.status, ['booked', 'held', 'requested']),
      ),
    );
  if (!found) return;
  const { booking } = found;
  if (booking.status === 'booked') {
    if (booking.startsAt.getTime() > now)
      await announceChange(tx, { kind: 'booked', booking }, settings, now);
    return;
  }
  const taken = await takeRequestedTime(tx, settings, booking, found.email, now);
  if (!taken) return;
  await announceChange(
    tx,
    taken.booking.status === 'held'
      ? {
          kind: 'held',
          booking: taken.booking,
          exists: taken.exists,
          clientGroup: booking.clientGroup,
        }
      : { kind: 'booked', booking: taken.booking },
    settings,
    now,
  );
}

/**
 * Holds (or, with confirmation off, books) the chosen time of `requested` at `now` (ms) when it is
 * still free for it, else marks it `expired`; returns the booking as it now is, with the address's
 * confirmed demo when the per-inbox cap is reached (its owner is then told a demo exists).
 */
async function takeRequestedTime(
  tx: Db,
  settings: BookingSettings,
  requested: DemoBooking,
  email: string,
  now: number,
): Promise<{ booking: DemoBooking; exists?: DemoBooking } | undefined> {
  const start = requested.startsAt.getTime();
  const offered = (await freeSlots(tx, settings, now)).some(
    (slot) =>
      slot.start === start && slot.hosts.some((host) => sameHost(host, requested.hostEmail)),
  );
  // Its own row is not counted: a requested time is not live, and a legacy hold is this booking.
  const visitor = { email, clientHash: requested.clientHash, clientGroup: requested.clientGroup };
  const cap = offered ? await reachedCap(tx, settings.caps, visitor, now) : null;
  const exists = cap?.cap === 'email' && settings.confirmEmail ? cap.booking : undefined;
  const free =
    offered &&
    (!cap || exists) &&
    (await hasRoomOnDay(tx, settings.rules, requested.hostEmail, start, now, requested.id)) &&
    !(await takenAt(tx, requested, now));
  if (!free) {
    await tx
      .update(demoBookings)
      .set({ status: 'expired', heldUntil: null, updatedAt: sql`now()` })
      .where(eq(demoBookings.id, requested.id));
    return undefined;
  }
  await releaseLapsedHolds(
    tx,
    { hostEmail: requested.hostEmail, start, leadId: requested.leadId },
    now,
  );
  const [booking] = await tx
    .update(demoBookings)
    .set({
      status: settings.confirmEmail ? 'held' : 'booked',
      heldUntil: settings.confirmEmail ? new Date(now + HOLD_MS) : null,
      updatedAt: sql`now()`,
    })
    .where(eq(demoBookings.id, requested.id))
    .returning();
  return { booking: booking!, exists };
}

/**
 * Whether another booking holds the time of `requested` at `now` (ms), checked under the host's
 * day lock (hasRoomOnDay), so no booking can take it before the update.
 */
async function takenAt(tx: Db, requested: DemoBooking, now: number): Promise<boolean> {
  const [other] = await tx
    .select({ id: demoBookings.id })
    .from(demoBookings)
    .where(
      and(
        liveAt(now),
        eq(demoBookings.hostEmail, requested.hostEmail),
        eq(demoBookings.startsAt, requested.startsAt),
        ne(demoBookings.id, requested.id),
      ),
    )
    .limit(1);
  return other !== undefined;
}
