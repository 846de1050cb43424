import 'server-only';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import type { PostWebhook } from '../../delivery/webhooks/sender';

/**
 * The `lead.erased` webhook event (docs/webhooks.md): an enquiry the receivers hold was erased at
 * its person's request, so they erase their copy too (DPDP Act s.8(7)(b): processors erase what
 * they were given). It carries the enquiry's reference and nothing personal.
 */
export type LeadErasedEvent = {
  type: 'lead.erased';
  version: 1;
  /** When it was erased (ISO 8601, UTC). */
  timestamp: string;
  data: { reference: string };
};

const leadErasedEvent = z.object({
  type: z.literal('lead.erased'),
  version: z.literal(1),
  timestamp: z.iso.datetime(),
  data: z.object({ reference: z.string() }),
}) satisfies z.ZodType<LeadErasedEvent>;

/** A `lead.erased` event to one endpoint, frozen when queued. */
export const leadErasedWebhookJob = defineJob<{ url: string; event: LeadErasedEvent }>(
  'privacy.webhook',
  z.object({ url: z.url(), event: leadErasedEvent }),
);

/**
 * Queues the `lead.erased` event of the enquiry `reference`, erased at `now`, to each endpoint of
 * `urls` (`WEBHOOK_URLS`) in the caller's transaction; `owner` is the privacy request's id (the
 * enquiry's own jobs are dropped with it). Idempotent per enquiry and endpoint.
 */
export async function enqueueLeadErased(
  tx: Db,
  reference: string,
  urls: readonly string[],
  owner: string,
  now: Date,
): Promise<void> {
  const event: LeadErasedEvent = {
    type: 'lead.erased',
    version: 1,
    timestamp: now.toISOString(),
    data: { reference },
  };
  for (const url of urls)
    await enqueue(
      tx,
      leadErasedWebhookJob,
      { url, event },
      { dedupeKey: `privacy.webhook:${url}#lead.erased:${reference}`, owner },
    );
}

/**
 * Runs `privacy.webhook` jobs: posts the frozen event with `post` (signed like every event).
 * @throws JobFailure from `post`.
 */
export function postLeadErased(
  post: PostWebhook,
): JobHandler<z.infer<typeof leadErasedWebhookJob.payload>> {
  return async ({ id, payload }) => {
    await post(payload.url, id, payload.event);
  };
}
