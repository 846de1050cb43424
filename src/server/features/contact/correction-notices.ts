import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import type { SendMail } from '../../delivery/email/transport';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import type { PostWebhook } from '../../delivery/webhooks/sender';
import type { NotificationAddresses } from './notification';
import { leads } from './schema';

/**
 * What a delivered enquiry's address correction tells those it was shared with: the sales inbox a
 * one-line note (its earlier e-mail's Reply-To is the first address), and each webhook endpoint the
 * `enquiry.address_corrected` event (docs/webhooks.md), so the CRM stops writing to the first
 * address. Queued in the correction's transaction.
 */

/** The sales inbox's note of a correction. */
export const correctionNoteJob = defineJob(
  'enquiry.corrected_note',
  z.object({ leadId: z.uuid() }),
);

/** The `enquiry.address_corrected` event of a correction to one endpoint. */
export const correctionWebhookJob = defineJob(
  'enquiry.corrected_webhook',
  z.object({ leadId: z.uuid(), url: z.url(), correctedAt: z.iso.datetime() }),
);

/**
 * Queues, in `tx`, the note and one event per endpoint of `webhookUrls` for the correction of the
 * enquiry `leadId` at `now` (each once per correction).
 */
export async function enqueueCorrectionNotices(
  tx: Db,
  leadId: string,
  webhookUrls: readonly string[],
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await enqueue(
    tx,
    correctionNoteJob,
    { leadId },
    { dedupeKey: `enquiry.corrected_note:${leadId}:${at}`, owner: leadId },
  );
  for (const url of webhookUrls)
    await enqueue(
      tx,
      correctionWebhookJob,
      { leadId, url, correctedAt: at },
      { dedupeKey: `enquiry.corrected_webhook:${leadId}:${url}:${at}`, owner: leadId },
    );
}

async function findLead(db: Db, id: string) {
  const [lead] = await db.select().from(leads).where(eq(leads.id, id));
  return lead;
}

/**
 * Runs `enquiry.corrected_note`: e-mails the sales inbox (`addresses`, audience `staff`) one line
 * saying the enquiry's address was corrected and to which (Reply-To it, unless suppressed). An
 * enquiry erased since is skipped.
 * @throws JobFailure from `send`.
 */
export function sendCorrectionNote(
  db: Db,
  send: SendMail,
  addresses: NotificationAddresses,
): JobHandler<z.infer<typeof correctionNoteJob.payload>> {
  return async ({ payload }) => {
    const lead = await findLead(db, payload.leadId);
    if (!lead) return { skipped: 'enquiry erased' };
    const reach = lead.suppressed
      ? 'The corrected address is suppressed: do not write to it.'
      : `Write to ${lead.email} from now on, not to the earlier address.`;
    await send(
      {
        from: addresses.from,
        to: addresses.to,
        ...(lead.suppressed ? {} : { replyTo: lead.email }),
        subject: `Website enquiry ${lead.reference}: address corrected`,
        text: `The visitor corrected the e-mail address of enquiry ${lead.reference}. ${reach}\n`,
      },
      { audience: 'staff' },
    );
  };
}

/**
 * Runs `enquiry.corrected_webhook`: posts `enquiry.address_corrected` (version 1: the reference,
 * the corrected address, whether it is suppressed) with `post`. An enquiry erased since is skipped.
 * @throws JobFailure from `post`.
 */
export function postCorrectionEvent(
  db: Db,
  post: PostWebhook,
): JobHandler<z.infer<typeof correctionWebhookJob.payload>> {
  return async ({ id, payload }) => {
    const lead = await findLead(db, payload.leadId);
    if (!lead) return { skipped: 'enquiry erased' };
    await post(payload.url, id, {
      type: 'enquiry.address_corrected',
      version: 1,
      timestamp: payload.correctedAt,
      data: {
        reference: lead.reference,
        email: lead.email,
        contactSuppressed: lead.suppressed,
      },
    });
  };
}
