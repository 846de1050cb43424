import 'server-only';
import { Webhook } from 'standardwebhooks';
import { asDeliveryFailure, DeliveryFailure, type JobSender } from '../outbox/delivery';
import { buildEnquiryEvent } from './payload';
import { responseFailure } from './response';

/** Largest request body sent, in bytes (an enquiry is a few KB; the form's limits keep it so). */
const MAX_BODY_BYTES = 64 * 1024;

/** The `webhook-id` of a job: derived from the outbox job, so every retry to an endpoint reuses it. */
export function webhookId(jobId: string): string {
  return `msg_${jobId}`;
}

/**
 * The endpoint a webhook job posts to: its target without the fragment, which names the event of a
 * `demo.*` job (`<url>#demo.booked:<booking id>:<sequence>`, see demoEventTarget) and is never sent.
 */
export function webhookUrl(target: string): string {
  return target.split('#')[0]!;
}

/**
 * The outbox's `webhook` channel (issue 12): POSTs a claimed job's frozen event (`payload`, e.g.
 * `demo.booked`, issue 16) or else its lead as an `enquiry.created` event to the job's endpoint
 * (webhookUrl), signed per Standard Webhooks with `secret` (`whsec_…`, via the
 * `standardwebhooks` library): headers `webhook-id`, `webhook-timestamp` (s), `webhook-signature`.
 * One attempt lasts at most `timeoutMs` (default 10 s); redirects are not followed; the response
 * body is never read (cancelled unread).
 * @throws DeliveryFailure: temporary for timeouts, connection errors, 408, 429 and 5xx (with the
 * `Retry-After` wait), permanent for redirects, other 4xx and an oversized body.
 */
export function createWebhookSender(secret: string, { timeoutMs = 10_000 } = {}): JobSender {
  const signer = new Webhook(secret);
  return async (job) => {
    const body = JSON.stringify(job.payload ?? buildEnquiryEvent(job.lead));
    if (Buffer.byteLength(body) > MAX_BODY_BYTES)
      throw new DeliveryFailure('Payload too large', true);
    const id = webhookId(job.id);
    const sentAt = new Date();
    let response: Response;
    try {
      response = await fetch(webhookUrl(job.target), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'nirmaya-site-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signer.sign(id, sentAt, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // fetch reports connection errors as `TypeError: fetch failed` with the socket error as cause.
      throw asDeliveryFailure(
        error instanceof TypeError && error.cause instanceof Error ? error.cause : error,
      );
    }
    await response.body?.cancel();
    if (!response.ok)
      throw responseFailure(response.status, response.headers.get('retry-after'), Date.now());
  };
}
