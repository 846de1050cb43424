import 'server-only';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import type { PostWebhook } from '../../delivery/webhooks/sender';
import type { DemoBooking, DemoEvent, DemoEventType } from './types';

/**
 * The `demo.*` webhook events (docs/webhooks.md): how an event is built from a booking change, the
 * `demo.webhook` job that carries it, frozen, to each endpoint of `WEBHOOK_URLS`, and its handler.
 */

/**
 * The schema of a `demo.*` webhook event (the DemoEvent type of types.ts), checked when its job is
 * queued and again when it runs.
 */
const demoEvent = z.object({
  type: z.enum(['demo.booked', 'demo.rescheduled', 'demo.cancelled']),
  version: z.literal(1),
  timestamp: z.iso.datetime(),
  data: z.object({
    reference: z.string(),
    bookingId: z.uuid(),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    host: z.object({ name: z.string(), email: z.string() }),
    previousStart: z.iso.datetime().optional(),
    sequence: z.number().int(),
  }),
}) satisfies z.ZodType<DemoEvent>;

/** A demo event to one webhook endpoint, frozen when queued: a later change never alters it. */
export const demoWebhookJob = defineJob<{ url: string; event: DemoEvent }>(
  'demo.webhook',
  z.object({ url: z.url(), event: demoEvent }),
);

/**
 * Builds the `type` event of `booking` (as it is after the change) of the enquiry `reference`,
 * hosted by `host`, at `at` (ms); `previousStart` is set for `demo.rescheduled`.
 */
export function buildDemoEvent(
  type: DemoEventType,
  booking: DemoBooking,
  reference: string,
  host: { name: string; email: string },
  at: number,
  previous?: DemoBooking,
): DemoEvent {
  return {
    type,
    version: 1,
    timestamp: new Date(at).toISOString(),
    data: {
      reference,
      bookingId: booking.id,
      start: booking.startsAt.toISOString(),
      end: booking.endsAt.toISOString(),
      host,
      ...(previous ? { previousStart: previous.startsAt.toISOString() } : {}),
      sequence: booking.sequence,
    },
  };
}

/**
 * Queues `event` to each endpoint of `urls` (`WEBHOOK_URLS`) in the caller's transaction, frozen
 * in the job's payload. Nothing when `urls` is empty. Idempotent per event and endpoint.
 */
export async function enqueueDemoEvent(
  tx: Db,
  booking: DemoBooking,
  event: DemoEvent,
  urls: readonly string[],
): Promise<void> {
  for (const url of urls)
    await enqueue(
      tx,
      demoWebhookJob,
      { url, event },
      {
        dedupeKey: `demo.webhook:${url}#${event.type}:${booking.id}:${event.data.sequence}`,
        owner: booking.leadId,
      },
    );
}

/**
 * Runs `demo.webhook` jobs: posts the frozen event with `post`.
 * @throws JobFailure from `post`.
 */
export function postDemoEvent(
  post: PostWebhook,
): JobHandler<z.infer<typeof demoWebhookJob.payload>> {
  return async ({ id, payload }) => {
    await post(payload.url, id, payload.event);
  };
}
