import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { outbox } from '../db/schema';
import type { DemoBooking } from './booking';

/** The webhook events of a demo's life (issue 16, item 5; docs/webhooks.md). */
export type DemoEventType = 'demo.booked' | 'demo.rescheduled' | 'demo.cancelled';

/**
 * A `demo.*` webhook event, version 1: the Standard Webhooks envelope of `enquiry.created`
 * (`type`, `version`, `timestamp` of the change, `data`). Times are ISO 8601 UTC.
 */
export type DemoEvent = {
  type: DemoEventType;
  version: 1;
  timestamp: string;
  data: {
    /** The enquiry's reference (`NH-…`). */
    reference: string;
    bookingId: string;
    start: string;
    end: string;
    host: { name: string; email: string };
    /** `demo.rescheduled` only: the start before the change. */
    previousStart?: string;
    /** The invitation's `SEQUENCE` after the change (0 when booked, + 1 at each change). */
    sequence: number;
  };
};

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
 * The outbox target of a demo event for the endpoint `url`: the URL with the event as fragment,
 * `<url>#<type>:<booking id>:<sequence>`. Each event is then its own job (one per lead, channel and
 * target) with its own `webhook-id`, retried, failed and re-queued (`leads retry`) like any
 * webhook job; the fragment is never sent (webhookUrl).
 */
export function demoEventTarget(url: string, event: DemoEvent): string {
  return `${url}#${event.type}:${event.data.bookingId}:${event.data.sequence}`;
}

/**
 * Queues `event` to each endpoint of `urls` (`WEBHOOK_URLS`) in the caller's transaction, frozen
 * as the job's payload, so a later change never alters what an earlier event says. Nothing when
 * `urls` is empty. Idempotent per event and endpoint.
 */
export async function enqueueDemoEvent(
  tx: Db,
  booking: DemoBooking,
  event: DemoEvent,
  urls: readonly string[],
): Promise<void> {
  if (urls.length === 0) return;
  await tx
    .insert(outbox)
    .values(
      urls.map((url) => ({
        id: randomUUID(),
        leadId: booking.leadId,
        channel: 'webhook' as const,
        target: demoEventTarget(url, event),
        bookingId: booking.id,
        payload: event,
      })),
    )
    .onConflictDoNothing();
}
