import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { leads } from './schema';
import { buildNotification, type NotificationAddresses } from './notification';
import type { SendMail } from '../../delivery/email/transport';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import { buildEnquiryEvent } from './webhook-event';
import type { PostWebhook } from '../../delivery/webhooks/sender';

/** Where an enquiry is delivered besides the provider's mailbox: `WEBHOOK_URLS`. */
export type DeliveryTargets = { webhookUrls: readonly string[] };

/** The provider's notification e-mail of an enquiry. */
export const enquiryEmailJob = defineJob('enquiry.email', z.object({ leadId: z.uuid() }));

/** An enquiry's `enquiry.created` event to one webhook endpoint. */
export const enquiryWebhookJob = defineJob(
  'enquiry.webhook',
  z.object({ leadId: z.uuid(), url: z.url() }),
);

/**
 * Queues every delivery of an enquiry in the caller's transaction, so the enquiry and its
 * deliveries are stored together or not at all (the transactional outbox): the provider's
 * notification e-mail and one webhook job per endpoint of `targets`. Only for leads: spam is
 * never queued. Idempotent: at most one job per enquiry and destination.
 */
export async function enqueueDeliveries(
  tx: Db,
  leadId: string,
  targets: DeliveryTargets,
): Promise<void> {
  await enqueue(
    tx,
    enquiryEmailJob,
    { leadId },
    { dedupeKey: `enquiry.email:${leadId}`, owner: leadId },
  );
  for (const url of targets.webhookUrls)
    await enqueue(
      tx,
      enquiryWebhookJob,
      { leadId, url },
      { dedupeKey: `enquiry.webhook:${leadId}:${url}`, owner: leadId },
    );
}

async function findLead(db: Db, id: string) {
  const [lead] = await db.select().from(leads).where(eq(leads.id, id));
  return lead;
}

/**
 * Runs `enquiry.email` jobs: e-mails the enquiry to the provider (`addresses`) with `send`.
 * An enquiry erased since it was queued is skipped.
 * @throws JobFailure from `send`.
 */
export function sendEnquiryEmail(
  db: Db,
  send: SendMail,
  addresses: NotificationAddresses,
): JobHandler<z.infer<typeof enquiryEmailJob.payload>> {
  return async ({ payload }) => {
    const lead = await findLead(db, payload.leadId);
    if (!lead) return { skipped: 'enquiry erased' };
    await send(buildNotification(lead, addresses), { audience: 'staff' });
  };
}

/**
 * Runs `enquiry.webhook` jobs: posts the enquiry's `enquiry.created` event with `post`. An enquiry
 * erased since it was queued is skipped.
 * @throws JobFailure from `post`.
 */
export function postEnquiryWebhook(
  db: Db,
  post: PostWebhook,
): JobHandler<z.infer<typeof enquiryWebhookJob.payload>> {
  return async ({ id, payload }) => {
    const lead = await findLead(db, payload.leadId);
    if (!lead) return { skipped: 'enquiry erased' };
    await post(payload.url, id, buildEnquiryEvent(lead));
  };
}
