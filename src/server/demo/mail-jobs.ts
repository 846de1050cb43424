import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { outbox, type demoBookings } from '../db/schema';
import { domainOf } from '../email/notification';
import { isPermanentFailure, type SendMail } from '../email/transport';
import { asDeliveryFailure, DeliveryFailure, type JobSender } from '../outbox/delivery';
import type { DemoHost } from './config';
import { buildInvitation, type InvitationAddresses } from './invitation';
import { buildReminder } from './reminder';

/** The e-mails of a booking: the invitation to the visitor and to the host, and the visitor's reminder. */
export type DemoMail = 'visitor' | 'host' | 'reminder';

/**
 * The outbox target of a demo e-mail job: `<mail>:<booking id>:<sequence>`, so a lead's jobs stay
 * unique per e-mail, booking and change (the outbox allows one job per lead, channel and target).
 */
export function demoMailTarget(mail: DemoMail, booking: { id: string; sequence: number }): string {
  return `${mail}:${booking.id}:${booking.sequence}`;
}

/**
 * Queues the e-mails of a booking in the booking's transaction (issue 16, item 5: through the
 * outbox, stored together or not at all): the invitations to the visitor and to the host, due now,
 * and the visitor's reminder, not before `remindAt` (none when `remindAt` is null: booked too late).
 */
export async function enqueueDemoMails(
  tx: Db,
  booking: typeof demoBookings.$inferSelect,
  remindAt: Date | null,
): Promise<void> {
  const job = (mail: DemoMail) => ({
    id: randomUUID(),
    leadId: booking.leadId,
    channel: 'demo' as const,
    target: demoMailTarget(mail, booking),
    bookingId: booking.id,
  });
  await tx
    .insert(outbox)
    .values([
      job('visitor'),
      job('host'),
      ...(remindAt ? [{ ...job('reminder'), nextAttemptAt: remindAt }] : []),
    ])
    .onConflictDoNothing();
}

/**
 * The outbox's `demo` channel: e-mails the claimed job's invitation (buildInvitation) or reminder
 * (buildReminder) with `send`. A booking no longer live is not announced (the job counts as done).
 * @throws DeliveryFailure: permanent when the job has no booking, its host is no longer in
 * `DEMO_HOSTS`, or the SMTP server answers 5xx; temporary otherwise.
 */
export function createDemoMailSender(
  send: SendMail,
  addresses: InvitationAddresses,
  hosts: readonly DemoHost[],
): JobSender {
  const domain = domainOf(addresses.from);
  return async (job) => {
    const booking = job.booking;
    if (!booking) throw new DeliveryFailure('demo e-mail without booking', true);
    if (booking.status !== 'booked') return;
    const host = hosts.find(
      (candidate) => candidate.email.toLowerCase() === booking.hostEmail.toLowerCase(),
    );
    if (!host) throw new DeliveryFailure('host not in DEMO_HOSTS', true);
    const facts = { booking, lead: job.lead, host, domain };
    const mail = job.target.split(':')[0] as DemoMail;
    try {
      await send(
        mail === 'reminder'
          ? buildReminder(facts, addresses)
          : buildInvitation(mail, facts, addresses),
      );
    } catch (error) {
      throw asDeliveryFailure(error, isPermanentFailure(error));
    }
  };
}
