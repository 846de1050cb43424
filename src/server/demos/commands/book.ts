import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { computeSlots } from '@/lib/demo/slots';
import type { Db } from '../../db';
import { demoBookings, leads } from '../../db/schema';
import { liveBooking } from '../bookings';
import { hostCalendars, hostsByLoad } from '../calendars';
import type { BookingResult, BookingSettings } from '../types';
import { freeSlots } from '../views/slots';
import { announceChange } from './announce';

/**
 * Books the demo at `start` (ms) for the lead `leadId`. The time must be offered now; its free
 * hosts are tried from the one with the fewest upcoming demos (ties in `DEMO_HOSTS` order). Each
 * try inserts the booking and queues what a booking announces (invitations, the reminder when the
 * demo is more than `reminderHours` away, the `demo.booked` event: announceChange) in one
 * transaction; the partial unique indexes of demo_bookings make a concurrent booking of the same
 * host and start, or a second live booking of the lead, insert nothing, on any number of
 * instances.
 * @throws on database errors (nothing is then booked).
 */
export async function bookDemo(
  db: Db,
  settings: BookingSettings,
  leadId: string,
  start: number,
  now: number = Date.now(),
): Promise<BookingResult> {
  const [lead] = await db
    .select({ verdict: leads.verdict })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead || lead.verdict === 'spam') return { outcome: 'refused' };
  const existing = await liveBooking(db, leadId);
  if (existing) return { outcome: 'already-booked', booking: existing };
  const calendars = await hostCalendars(db, settings, now);
  const slot = computeSlots(settings.rules, calendars, now).find(
    (candidate) => candidate.start === start,
  );
  if (slot) {
    for (const hostEmail of hostsByLoad(slot.hosts, calendars, now)) {
      const booking = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(demoBookings)
          .values({
            id: randomUUID(),
            leadId,
            hostEmail,
            startsAt: new Date(slot.start),
            endsAt: new Date(slot.end),
          })
          .onConflictDoNothing()
          .returning();
        if (inserted)
          await announceChange(tx, { kind: 'booked', booking: inserted }, settings, now);
        return inserted;
      });
      if (booking) return { outcome: 'booked', booking };
      const raced = await liveBooking(db, leadId);
      if (raced) return { outcome: 'already-booked', booking: raced };
    }
  }
  return { outcome: 'slot-gone', slots: await freeSlots(db, settings, now) };
}
