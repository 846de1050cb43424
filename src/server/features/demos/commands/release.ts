import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { leads } from '../../contact';
import { isHeldAt } from '../holds';
import { upcomingOfEmail } from '../limits';
import { demoBookings } from '../schema';
import type { BookingSettings } from '../types';
import { announceChange } from './announce';

/**
 * Announces, in the release's transaction `tx` at `now` (ms), the booking a quarantined enquiry
 * `leadId` made while it waited for an operator (bookDemo stores it and announces nothing): a
 * booked demo that has not started gets its invitations, reminder and `demo.booked` event as any
 * booking; a hold that has not lapsed gets its request to confirm (or, when the address has
 * reached its cap of upcoming demos meanwhile, the notice that one exists), counted by the
 * budget of mails to unproven addresses. A lapsed hold or a past demo announces nothing: the page
 * told the visitor the time was held for 30 minutes only. Runs once per release: releaseSpam
 * calls it only when the enquiry left quarantine.
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
    .where(and(eq(demoBookings.leadId, leadId), inArray(demoBookings.status, ['booked', 'held'])));
  if (!found) return;
  const { booking } = found;
  if (booking.status === 'booked') {
    if (booking.startsAt.getTime() > now)
      await announceChange(tx, { kind: 'booked', booking }, settings, now);
    return;
  }
  if (!isHeldAt(booking, now)) return;
  const others = (await upcomingOfEmail(tx, found.email, now)).filter(
    (other) => other.id !== booking.id,
  );
  const perEmail = settings.caps?.perEmail ?? Infinity;
  const exists = others.length >= perEmail ? others[0] : undefined;
  await announceChange(tx, { kind: 'held', booking, exists }, settings, now);
}
