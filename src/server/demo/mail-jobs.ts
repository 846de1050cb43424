import 'server-only';
import { randomUUID } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../db';
import { outbox, type demoBookings } from '../db/schema';
import { domainOf } from '../email/notification';
import { isPermanentFailure, type SendMail } from '../email/transport';
import { asDeliveryFailure, DeliveryFailure, type JobSender } from '../outbox/delivery';
import type { DemoHost } from './config';
import { buildCancellation } from './cancellation';
import { buildInvitation, type InvitationAddresses, type InvitationRecipient } from './invitation';
import { buildReminder } from './reminder';

/**
 * The e-mails of a booking: the invitation to the visitor and to the host, the visitor's reminder,
 * and the cancellation to the visitor or a host (issue 16, item 6).
 */
export type DemoMail = 'visitor' | 'host' | 'reminder' | 'visitor-cancel' | 'host-cancel';

/**
 * The demo a cancellation e-mail withdraws, frozen in its job's payload: the host and time as they
 * were announced, the change's sequence, and why (`moved` to another host, or `cancelled`).
 */
const cancelledDemo = z.object({
  hostEmail: z.string(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  sequence: z.number().int(),
  reason: z.enum(['cancelled', 'moved']),
});

/** What enqueueCancellationMails withdraws (see cancelledDemo). */
export type CancelledDemo = z.infer<typeof cancelledDemo>;

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
 * Queues cancellation e-mails to `recipients` in the caller's transaction (issue 16, item 6): the
 * demo `cancelled` (host, time, the change's sequence, reason) is frozen in each job's payload, so
 * the e-mail withdraws what was announced even after later changes. Targets follow demoMailTarget
 * with the change's sequence (`host-cancel:<booking id>:<sequence>`).
 */
export async function enqueueCancellationMails(
  tx: Db,
  booking: typeof demoBookings.$inferSelect,
  recipients: readonly InvitationRecipient[],
  cancelled: CancelledDemo,
): Promise<void> {
  await tx
    .insert(outbox)
    .values(
      recipients.map((recipient) => ({
        id: randomUUID(),
        leadId: booking.leadId,
        channel: 'demo' as const,
        target: demoMailTarget(`${recipient}-cancel`, {
          id: booking.id,
          sequence: cancelled.sequence,
        }),
        bookingId: booking.id,
        payload: cancelled,
      })),
    )
    .onConflictDoNothing();
}

/**
 * The outbox's `demo` channel: e-mails the claimed job's invitation (buildInvitation), reminder
 * (buildReminder) or cancellation (buildCancellation, from the job's frozen payload) with `send`.
 * An invitation or reminder is not sent (the job counts as done) when its booking is no longer
 * live or has changed since it was queued (its sequence is older than the booking's): a newer job
 * announces the change. The visitor's invitation and reminder carry the link `manageUrl` returns
 * for the booking id (issue 16, item 6), when given.
 * @throws DeliveryFailure: permanent when the job has no booking or an unreadable payload, its host
 * is no longer in `DEMO_HOSTS`, or the SMTP server answers 5xx; temporary otherwise.
 */
export function createDemoMailSender(
  send: SendMail,
  addresses: InvitationAddresses,
  hosts: readonly DemoHost[],
  manageUrl?: (bookingId: string) => Promise<string>,
): JobSender {
  const domain = domainOf(addresses.from);
  const hostOf = (email: string) => {
    const host = hosts.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
    if (!host) throw new DeliveryFailure('host not in DEMO_HOSTS', true);
    return host;
  };
  return async (job) => {
    const booking = job.booking;
    if (!booking) throw new DeliveryFailure('demo e-mail without booking', true);
    const [mail, , sequence] = job.target.split(':') as [DemoMail, string, string];
    let message: SendMailOptions;
    if (mail === 'visitor-cancel' || mail === 'host-cancel') {
      const parsed = cancelledDemo.safeParse(job.payload);
      if (!parsed.success) throw new DeliveryFailure('cancellation without its demo', true);
      const { reason, ...was } = parsed.data;
      const announced = {
        ...booking,
        ...was,
        startsAt: new Date(was.startsAt),
        endsAt: new Date(was.endsAt),
      };
      const facts = { booking: announced, lead: job.lead, host: hostOf(was.hostEmail), domain };
      message = buildCancellation(
        mail === 'host-cancel' ? 'host' : 'visitor',
        reason,
        facts,
        addresses,
      );
    } else {
      if (booking.status !== 'booked' || Number(sequence) !== booking.sequence) return;
      const facts = {
        booking,
        lead: job.lead,
        host: hostOf(booking.hostEmail),
        domain,
        manageUrl: mail === 'host' ? undefined : await manageUrl?.(booking.id),
      };
      message =
        mail === 'reminder'
          ? buildReminder(facts, addresses)
          : buildInvitation(mail, facts, addresses);
    }
    try {
      await send(message);
    } catch (error) {
      throw asDeliveryFailure(error, isPermanentFailure(error));
    }
  };
}
