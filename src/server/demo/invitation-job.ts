import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { outbox, type demoBookings } from '../db/schema';
import { domainOf } from '../email/notification';
import { isPermanentFailure, type SendMail } from '../email/transport';
import { asDeliveryFailure, DeliveryFailure, type JobSender } from '../outbox/delivery';
import type { DemoHost } from './config';
import { buildInvitation, type InvitationAddresses, type InvitationRecipient } from './invitation';

/**
 * The outbox target of an invitation job: `<recipient>:<booking id>:<sequence>`, so a lead's jobs
 * stay unique per recipient, booking and change (the outbox allows one job per lead, channel and target).
 */
export function invitationTarget(
  recipient: InvitationRecipient,
  booking: { id: string; sequence: number },
): string {
  return `${recipient}:${booking.id}:${booking.sequence}`;
}

/**
 * Queues the invitations of a booking, to the visitor and to the host, in the booking's
 * transaction (issue 16, item 5: through the outbox, stored together or not at all).
 */
export async function enqueueInvitations(
  tx: Db,
  booking: typeof demoBookings.$inferSelect,
): Promise<void> {
  await tx
    .insert(outbox)
    .values(
      (['visitor', 'host'] as const).map((recipient) => ({
        id: randomUUID(),
        leadId: booking.leadId,
        channel: 'invitation' as const,
        target: invitationTarget(recipient, booking),
        bookingId: booking.id,
      })),
    )
    .onConflictDoNothing();
}

/**
 * The outbox's `invitation` channel: e-mails the claimed job's invitation (buildInvitation) with
 * `send`. A booking no longer live is not announced (the job counts as done).
 * @throws DeliveryFailure: permanent when the job has no booking, its host is no longer in
 * `DEMO_HOSTS`, or the SMTP server answers 5xx; temporary otherwise.
 */
export function createInvitationSender(
  send: SendMail,
  addresses: InvitationAddresses,
  hosts: readonly DemoHost[],
): JobSender {
  const domain = domainOf(addresses.from);
  return async (job) => {
    const booking = job.booking;
    if (!booking) throw new DeliveryFailure('invitation without booking', true);
    if (booking.status !== 'booked') return;
    const host = hosts.find(
      (candidate) => candidate.email.toLowerCase() === booking.hostEmail.toLowerCase(),
    );
    if (!host) throw new DeliveryFailure('host not in DEMO_HOSTS', true);
    const recipient = job.target.startsWith('host:') ? 'host' : 'visitor';
    try {
      await send(buildInvitation(recipient, { booking, lead: job.lead, host, domain }, addresses));
    } catch (error) {
      throw asDeliveryFailure(error, isPermanentFailure(error));
    }
  };
}
