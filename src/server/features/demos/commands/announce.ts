import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { funnelSourceOf, recordFunnelEvent } from '../../../platform/funnel';
import { leads } from '../../contact';
import { sameHost } from '../bookings';
import { enqueueCancellationMails, enqueueDemoMails } from '../mails/mail-jobs';
import { enqueueProofRequest } from '../mails/proof-request';
import type { BookingSettings, CancelledDemo, DemoBooking, DemoChange } from '../types';
import { buildDemoEvent, enqueueDemoEvent } from '../webhook-events';

/**
 * Queues everything a change announces, in the change's transaction `tx`, so the change and
 * its announcements are stored together or not at all:
 * - booked or rescheduled: the invitations to the visitor and the host (`METHOD:REQUEST`, the
 *   booking's sequence; the host's copied to `LEADS_TO`) and the visitor's reminder, not before
 *   `settings.reminderHours` before the demo (none when that is not after `now`, ms); a reschedule
 *   to another host also sends the previous host a cancellation (`moved`);
 * - cancelled: cancellations (`METHOD:CANCEL`) to the visitor and the host, no reminder (the
 *   sender skips the reminders of older sequences);
 * - held (`DEMO_CONFIRM_EMAIL`): only the visitor's request to confirm, or with `exists` the
 *   notice that the address already has that demo, each counted by the budget of mails to
 *   unproven addresses (enqueueProofRequest: past it, nothing); no invitation, reminder or event
 *   until the hold is confirmed (then announced as `booked`);
 * - when `settings.webhookUrls` is set, the `demo.booked`, `demo.rescheduled` or `demo.cancelled`
 *   event to each endpoint, stamped `now` (the change's own clock, like the reminder's rule).
 */
export async function announceChange(
  tx: Db,
  change: DemoChange,
  settings: BookingSettings,
  now: number,
): Promise<void> {
  const { booking } = change;
  if (change.kind === 'held') {
    await enqueueProofRequest(tx, booking, settings, now, change.exists, change.clientGroup);
    return;
  }
  const snapshot = (of: DemoBooking, reason: CancelledDemo['reason']): CancelledDemo => ({
    hostEmail: of.hostEmail,
    startsAt: of.startsAt.toISOString(),
    endsAt: of.endsAt.toISOString(),
    sequence: booking.sequence,
    reason,
  });
  if (change.kind === 'cancelled') {
    await enqueueCancellationMails(
      tx,
      booking,
      ['visitor', 'host'],
      snapshot(booking, 'cancelled'),
    );
  } else {
    const remindAt = booking.startsAt.getTime() - settings.reminderHours * 60 * 60_000;
    await enqueueDemoMails(tx, booking, remindAt > now ? new Date(remindAt) : null);
    if (change.kind === 'rescheduled' && !sameHost(change.previous.hostEmail, booking.hostEmail))
      await enqueueCancellationMails(tx, booking, ['host'], snapshot(change.previous, 'moved'));
  }
  await countInFunnel(tx, change, now);
  const urls = settings.webhookUrls ?? [];
  if (urls.length === 0) return;
  const [lead] = await tx
    .select({ reference: leads.reference })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  const host = settings.hosts.find((candidate) => sameHost(candidate.email, booking.hostEmail));
  const event = buildDemoEvent(
    `demo.${change.kind}`,
    booking,
    lead!.reference,
    { name: host?.name ?? booking.hostEmail, email: booking.hostEmail },
    now,
    change.kind === 'rescheduled' ? change.previous : undefined,
  );
  await enqueueDemoEvent(tx, booking, event, urls);
}

/**
 * The change as a step of the sources' funnel (platform/funnel.ts): a booking is counted with its
 * enquiry's source (and held once its start passes), a move changes that start, a cancellation
 * takes it out before it is counted as held.
 */
async function countInFunnel(tx: Db, change: DemoChange, now: number): Promise<void> {
  const { booking } = change;
  const at = new Date(now);
  if (change.kind === 'cancelled')
    return recordFunnelEvent(tx, { step: 'demo_cancelled', at, bookingId: booking.id });
  if (change.kind === 'rescheduled')
    return recordFunnelEvent(tx, {
      step: 'demo_moved',
      at,
      bookingId: booking.id,
      startsAt: booking.startsAt,
    });
  const [lead] = await tx
    .select({
      referrerHost: leads.referrerHost,
      utmSource: leads.utmSource,
      utmMedium: leads.utmMedium,
      utmCampaign: leads.utmCampaign,
    })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  if (!lead) return;
  await recordFunnelEvent(tx, {
    step: 'demo_booked',
    at,
    source: funnelSourceOf(lead),
    bookingId: booking.id,
    startsAt: booking.startsAt,
  });
}
