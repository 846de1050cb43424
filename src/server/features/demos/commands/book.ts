import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { computeSlots } from '@/lib/demo/slots';
import type { Db } from '../../../platform/db';
import { demoBookings } from '../schema';
import { leads } from '../../contact';
import { currentBooking, requestedBooking } from '../bookings';
import { hostCalendars, hostsByLoad } from '../calendars';
import { HOLD_MS, releaseLapsedHolds } from '../holds';
import { hasRoomOnDay, reachedCap } from '../limits';
import type { BookingResult, BookingSettings } from '../types';
import { freeSlots } from '../views/slots';
import { announceChange } from './announce';

/**
 * Books the demo at `start` (ms) for the lead `leadId`, posted from the client whose address hashes
 * to `clientHash` (null: no client, e.g. the operator) in the client group `clientGroup`
 * (hashClientGroup, what the budget of mails to unproven addresses counts it by). The time must be offered now; its free
 * hosts are tried from the one with the fewest upcoming demos (ties in `DEMO_HOSTS` order). Each
 * try is one transaction: the caps of upcoming demos per e-mail and per client address and the
 * host's `maxPerDay` are counted under their locks (limits.ts), lapsed holds in the way are
 * released (holds.ts), then the booking is inserted and what a booking announces is queued
 * (invitations, the reminder when the demo is more than `reminderHours` away, the `demo.booked`
 * event: announceChange). With `settings.confirmEmail` the booking is inserted `held` until
 * HOLD_MS after `now` instead (outcome `held`) and only the visitor's request to confirm is
 * queued; past the per-e-mail cap it is held all the same (its owner is e-mailed that a demo
 * already exists instead of asked to confirm: outcome `held` with `cap: 'email'`), so the answer
 * tells a stranger nothing. A quarantined enquiry's chosen time is stored as `requested`, holding
 * nothing and announcing nothing, and answered as a lead's booking would be, until an operator
 * releases the enquiry (announceReleased holds or books it then, if it is still free). The partial unique indexes of demo_bookings make a concurrent booking of the same host
 * and start, or a second live booking or hold of the lead, insert nothing, on any number of
 * instances; a host whose day is full is skipped.
 * @throws on database errors (nothing is then booked).
 */
export async function bookDemo(
  db: Db,
  settings: BookingSettings,
  leadId: string,
  start: number,
  now: number = Date.now(),
  clientHash: string | null = null,
  clientGroup: string | null = null,
): Promise<BookingResult> {
  const [lead] = await db
    .select({ verdict: leads.verdict, email: leads.email })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead) return { outcome: 'refused' };
  const existing =
    (await currentBooking(db, leadId, now)) ??
    (lead.verdict === 'spam' ? await requestedBooking(db, leadId, now) : undefined);
  if (existing) return { outcome: 'already-booked', booking: existing };
  const calendars = await hostCalendars(db, settings, now);
  const slot = computeSlots(settings.rules, calendars, now).find(
    (candidate) => candidate.start === start,
  );
  // A quarantined enquiry keeps its chosen time without holding it, answered as a lead's booking.
  if (slot && lead.verdict === 'spam') {
    const [requested] = await db
      .insert(demoBookings)
      .values({
        id: randomUUID(),
        leadId,
        hostEmail: hostsByLoad(slot.hosts, calendars, now)[0]!,
        startsAt: new Date(slot.start),
        endsAt: new Date(slot.end),
        clientHash,
        clientGroup,
        status: 'requested',
        heldUntil: new Date(now + HOLD_MS),
      })
      .returning();
    return { outcome: settings.confirmEmail ? 'held' : 'booked', booking: requested! };
  }
  if (slot) {
    for (const hostEmail of hostsByLoad(slot.hosts, calendars, now)) {
      const attempt = await db.transaction(async (tx) => {
        const visitor = { email: lead.email, leadId, clientHash, clientGroup };
        const cap = await reachedCap(tx, settings.caps, visitor, now);
        // With confirmation, the e-mail cap answers as any hold does: its owner hears of it. The
        // client's cap still holds (counted without the e-mail's).
        const exists = cap?.cap === 'email' && settings.confirmEmail ? cap.booking : undefined;
        if (cap && !exists) return cap;
        const clientCap =
          exists && settings.caps
            ? await reachedCap(tx, { ...settings.caps, perEmail: Infinity }, visitor, now)
            : null;
        if (clientCap) return clientCap;
        if (!(await hasRoomOnDay(tx, settings.rules, hostEmail, slot.start, now))) return undefined;
        await releaseLapsedHolds(tx, { hostEmail, start: slot.start, leadId }, now);
        const [inserted] = await tx
          .insert(demoBookings)
          .values({
            id: randomUUID(),
            leadId,
            hostEmail,
            startsAt: new Date(slot.start),
            endsAt: new Date(slot.end),
            clientHash,
            clientGroup,
            ...(settings.confirmEmail && {
              status: 'held' as const,
              heldUntil: new Date(now + HOLD_MS),
            }),
          })
          .onConflictDoNothing()
          .returning();
        if (inserted)
          await announceChange(
            tx,
            inserted.status === 'held'
              ? { kind: 'held', booking: inserted, exists, clientGroup }
              : { kind: 'booked', booking: inserted },
            settings,
            now,
          );
        return inserted && { booked: inserted, exists };
      });
      if (attempt && 'cap' in attempt) return { outcome: 'capped', ...attempt };
      if (attempt?.booked.status === 'held')
        return {
          outcome: 'held',
          booking: attempt.booked,
          ...(attempt.exists && { cap: 'email' as const }),
        };
      if (attempt) return { outcome: 'booked', booking: attempt.booked };
      const raced = await currentBooking(db, leadId, now);
      if (raced) return { outcome: 'already-booked', booking: raced };
    }
  }
  return { outcome: 'slot-gone', slots: await freeSlots(db, settings, now) };
}
