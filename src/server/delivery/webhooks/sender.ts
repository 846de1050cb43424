import 'server-only';
import { Webhook } from 'standardwebhooks';
import { asJobFailure, JobFailure } from '../queue/failure';
import { responseFailure } from './response';

/** Largest request body sent, in bytes (an enquiry is a few KB; the form's limits keep it so). */
const MAX_BODY_BYTES = 64 * 1024;

/** The `webhook-id` of a job: derived from the job's id, so every retry to an endpoint reuses it. */
export function webhookId(jobId: string): string {
  return `msg_${jobId}`;
}

/** Posts one event to one endpoint (see createWebhookPoster). */
export type PostWebhook = (url: string, jobId: string, event: object) => Promise<void>;

/**
 * The webhook channel: POSTs an event (JSON) to an endpoint, signed per Standard Webhooks with
 * `secret` (`whsec_…`, via the `standardwebhooks` library): headers `webhook-id` (from the job's
 * id, see webhookId), `webhook-timestamp` (s), `webhook-signature`. One attempt lasts at most
 * `timeoutMs` (default 10 s); redirects are not followed; the response body is never read.
 * @throws JobFailure: temporary for timeouts, connection errors, 408, 429 and 5xx (with the
 * `Retry-After` wait), permanent for redirects, other 4xx and an oversized body.
 */
export function createWebhookPoster(secret: string, { timeoutMs = 10_000 } = {}): PostWebhook {
  const signer = new Webhook(secret);
  return async (url, jobId, event) => {
    const body = JSON.stringify(event);
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new JobFailure('Payload too large', true);
    const id = webhookId(jobId);
    const sentAt = new Date();
    let response: Response;
    try {
      response = await fetch(url, {
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
      throw asJobFailure(
        error instanceof TypeError && error.cause instanceof Error ? error.cause : error,
      );
    }
    await response.body?.cancel();
    if (!response.ok)
      throw responseFailure(response.status, response.headers.get('retry-after'), Date.now());
  };
}
