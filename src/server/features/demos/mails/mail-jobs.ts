import 'server-only';
import { eq } from 'drizzle-orm';
import type { SendMailOptions } from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../../../platform/db';
import { demoBookings } from '../schema';
import { leads } from '../../contact';
import { domainOf } from '../../../delivery/email/message';
import type { SendMail } from '../../../delivery/email/transport';
import { enqueue } from '../../../delivery/queue/enqueue';
import { JobFailure } from '../../../delivery/queue/failure';
import { defineJob, type JobHandler } from '../../../delivery/queue/job';
import { sameHost } from '../bookings';
import type {
  CancelledDemo,
  DemoBooking,
  DemoHost,
  DemoMailPayload,
  InvitationAddresses,
  InvitationRecipient,
} from '../types';
import { buildCancellation } from './cancellation';
import { buildConfirmationRequest, buildExistsNotice } from './confirmation';
import { buildInvitation } from './invitation';
import { buildReminder } from './reminder';

/**
 * The `demo.mail` job: how the e-mails of a booking change are queued (in the change's
 * transaction) and the handler that builds and sends each when it is due.
 */

/**
 * The demo a cancellation e-mail withdraws (CancelledDemo), frozen in its job's payload: the host
 * and time as they were announced, the change's sequence, and why.
 */
const cancelledDemo = z.object({
  hostEmail: z.string(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  sequence: z.number().int(),
  reason: z.enum(['cancelled', 'moved']),
}) satisfies z.ZodType<CancelledDemo>;

/** One e-mail of a booking (DemoMailPayload); a cancellation carries the demo it withdraws. */
export const demoMailJob = defineJob<DemoMailPayload>(
  'demo.mail',
  z.object({
    bookingId: z.uuid(),
    mail: z.enum([
      'visitor',
      'host',
      'reminder',
      'visitor-cancel',
      'host-cancel',
      'confirm',
      'exists',
    ]),
    sequence: z.number().int(),
    cancelled: cancelledDemo.optional(),
    existing: z.uuid().optional(),
  }),
);

/**
 * Queues one demo e-mail, unique per e-mail, booking and change (and `sentAt`, ms, for the
 * requests that may be sent again).
 */
export async function enqueueDemoMail(
  tx: Db,
  booking: { id: string; leadId: string },
  payload: Omit<DemoMailPayload, 'bookingId'>,
  notBefore?: Date,
  sentAt?: number,
): Promise<void> {
  await enqueue(
    tx,
    demoMailJob,
    { bookingId: booking.id, ...payload },
    {
      dedupeKey: `demo.mail:${payload.mail}:${booking.id}:${payload.sequence}${sentAt === undefined ? '' : `:${sentAt}`}`,
      owner: booking.leadId,
      notBefore,
    },
  );
}

/**
 * Queues the e-mails of a booking in the booking's transaction (stored together or not at all):
 * the invitations to the visitor and to the host, due now, and the visitor's reminder, not before
 * `remindAt` (none when `remindAt` is null: booked too late).
 */
export async function enqueueDemoMails(
  tx: Db,
  booking: DemoBooking,
  remindAt: Date | null,
): Promise<void> {
  const { sequence } = booking;
  await enqueueDemoMail(tx, booking, { mail: 'visitor', sequence });
  await enqueueDemoMail(tx, booking, { mail: 'host', sequence });
  if (remindAt) await enqueueDemoMail(tx, booking, { mail: 'reminder', sequence }, remindAt);
}

/**
 * The signed links the visitor's demo e-mails carry, built when the e-mail is sent: the manage
 * page of a booking (by id), and the confirmation page of a held booking.
 */
export type DemoLinks = {
  manage(bookingId: string): Promise<string>;
  confirm(booking: DemoBooking, issuedAt: number): Promise<string>;
};

/**
 * The manage link of the demo `existingId` an "already exists" notice is about, issued at `at`
 * (ms): only when it is booked (a hold waiting for its own confirmation has no manage page).
 */
async function existingLink(
  db: Db,
  existingId: string | undefined,
  links: DemoLinks,
): Promise<string | undefined> {
  if (!existingId) return undefined;
  const [existing] = await db
    .select({ status: demoBookings.status })
    .from(demoBookings)
    .where(eq(demoBookings.id, existingId));
  return existing?.status === 'booked' ? links.manage(existingId) : undefined;
}

/**
 * Queues cancellation e-mails to `recipients` in the caller's transaction: the demo `cancelled`
 * (host, time, the change's sequence, reason) is frozen in each job's payload, so the e-mail
 * withdraws what was announced even after later changes.
 */
export async function enqueueCancellationMails(
  tx: Db,
  booking: DemoBooking,
  recipients: readonly InvitationRecipient[],
  cancelled: CancelledDemo,
): Promise<void> {
  for (const recipient of recipients)
    await enqueueDemoMail(tx, booking, {
      mail: `${recipient}-cancel`,
      sequence: cancelled.sequence,
      cancelled,
    });
}

/**
 * Runs `demo.mail` jobs: e-mails the invitation (buildInvitation), reminder (buildReminder) or
 * cancellation (buildCancellation, from the job's frozen demo) or the request to confirm a hold
 * (buildConfirmationRequest, with `links.confirm`) with `send`. A request to confirm is skipped
 * once its booking is no longer held or its hold has lapsed by `now()`. An invitation or
 * reminder is skipped when its booking is no longer live or has changed since it was queued (its
 * sequence is older than the booking's): a newer job announces the change; and when the demo has
 * started by `now()` (after an outage, say): an invitation to something already begun helps no
 * one. Each skip is logged by the worker with its reason (`job.skipped`). A job whose booking
 * was erased is skipped. The visitor's invitation and reminder carry the link `links.manage`
 * returns for the booking id, when given. An e-mail to the visitor (invitation, reminder, request
 * to confirm, cancellation) that the suppression gate withholds (the address asked to be erased
 * or left alone, DPDP Act s.6(4)) is skipped; the host's are sent as `staff`.
 * @throws JobFailure: permanent when a cancellation lacks its demo, the host is no longer in
 * `DEMO_HOSTS`, or a request to confirm has no `links`; from `send` otherwise.
 */
export function sendDemoMail(
  db: Db,
  send: SendMail,
  addresses: InvitationAddresses,
  hosts: readonly DemoHost[],
  links?: DemoLinks,
  now: () => number = Date.now,
): JobHandler<DemoMailPayload> {
  const domain = domainOf(addresses.from);
  const hostOf = (email: string) => {
    const host = hosts.find((candidate) => sameHost(candidate.email, email));
    if (!host) throw new JobFailure('host not in DEMO_HOSTS', true);
    return host;
  };
  return async ({ payload }) => {
    const [found] = await db
      .select({ booking: demoBookings, lead: leads })
      .from(demoBookings)
      .innerJoin(leads, eq(leads.id, demoBookings.leadId))
      .where(eq(demoBookings.id, payload.bookingId));
    if (!found) return { skipped: 'demo erased' };
    const { booking, lead } = found;
    const { mail } = payload;
    let message: SendMailOptions;
    if (mail === 'visitor-cancel' || mail === 'host-cancel') {
      if (!payload.cancelled) throw new JobFailure('cancellation without its demo', true);
      const { reason, ...was } = payload.cancelled;
      const announced = {
        ...booking,
        ...was,
        startsAt: new Date(was.startsAt),
        endsAt: new Date(was.endsAt),
      };
      const facts = { booking: announced, lead, host: hostOf(was.hostEmail), domain };
      message = buildCancellation(
        mail === 'host-cancel' ? 'host' : 'visitor',
        reason,
        facts,
        addresses,
      );
    } else if (mail === 'confirm' || mail === 'exists') {
      if (booking.status !== 'held') return { skipped: 'demo no longer held' };
      if ((booking.heldUntil?.getTime() ?? 0) <= now()) return { skipped: 'hold lapsed' };
      if (!links) throw new JobFailure('no confirm link', true);
      const facts = { bookingId: booking.id, email: lead.email, domain };
      const at = now();
      message =
        mail === 'confirm'
          ? buildConfirmationRequest(facts, addresses, await links.confirm(booking, at), at)
          : buildExistsNotice(facts, addresses, await existingLink(db, payload.existing, links));
    } else {
      if (booking.status !== 'booked') return { skipped: 'demo cancelled' };
      if (payload.sequence !== booking.sequence) return { skipped: 'demo changed since' };
      if (booking.startsAt.getTime() <= now()) return { skipped: 'demo already started' };
      const facts = {
        booking,
        lead,
        host: hostOf(booking.hostEmail),
        domain,
        manageUrl: mail === 'host' ? undefined : await links?.manage(booking.id),
      };
      message =
        mail === 'reminder'
          ? buildReminder(facts, addresses)
          : buildInvitation(mail, facts, addresses);
    }
    const forHost = mail === 'host' || mail === 'host-cancel';
    const sent = await send(message, { audience: forHost ? 'staff' : 'visitor' });
    if (sent === 'suppressed') return { skipped: 'address suppressed' };
  };
}
