import 'server-only';
import { retryDelay } from '@/lib/retry';
import type { Db } from '../db';
import type { OutboxChannel } from '../db/schema';
import { errorFacts, log } from '../log';
import { countNotification } from '../metrics';
import { asDeliveryFailure, type ChannelSenders } from './delivery';
import { claimJobs, markFailed, markRetry, markSent, releaseClaim, type ClaimedJob } from './queue';

/** Retry policy and pacing of the worker (all times in ms). */
export type WorkerOptions = {
  /** Delay before the 2nd attempt; doubles each time (exponential backoff). Default 30 s. */
  baseDelayMs?: number;
  /** Longest delay between attempts. Default 1 h. */
  maxDelayMs?: number;
  /** Attempts before a temporarily failing job is marked failed. Default 20 (about 16 h). */
  maxAttempts?: number;
  /** How long a claim lasts before another worker may take the job over. Default 5 min. */
  leaseMs?: number;
  /** Poll interval when idle. Default 5 s. */
  pollMs?: number;
  /** Jobs claimed per round. Default 10. */
  batchSize?: number;
};

export type OutboxWorker = {
  /** Sends every job that is due now; resolves with how many were handled. */
  drain(): Promise<number>;
  /** Asks for a drain soon (after an enquiry is stored). */
  nudge(): void;
  /** Starts polling every `pollMs`. */
  start(): void;
  /**
   * Stops for good (graceful shutdown, issue 10 item 5): claims nothing more, lets the send in
   * progress finish and hands the round's other claimed jobs back (due at once, attempt not
   * counted); resolves once the round has ended.
   */
  stop(): Promise<void>;
};

/**
 * The outbox worker: claims due jobs of the channels it has `senders` for (e-mail, webhook), sends
 * each with its channel's sender, and records the outcome. Temporary failures are retried with
 * exponential backoff (at least the sender's `retryAfterMs`); permanent ones (as the sender judges,
 * e.g. SMTP 5xx, HTTP 410) and jobs out of attempts are marked failed and stay visible.
 * Delivery is at-least-once: a crash between sending and recording resends after the lease, with
 * the same Message-ID or webhook-id.
 */
export function createOutboxWorker(
  db: Db,
  senders: ChannelSenders,
  options: WorkerOptions = {},
): OutboxWorker {
  const {
    baseDelayMs = 30_000,
    maxDelayMs = 3_600_000,
    maxAttempts = 20,
    leaseMs = 300_000,
    pollMs = 5_000,
    batchSize = 10,
  } = options;
  let running: Promise<number> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const channels = Object.keys(senders) as OutboxChannel[];

  async function deliver(job: ClaimedJob): Promise<void> {
    try {
      await senders[job.channel]!(job);
      await markSent(db, job.id);
      countNotification('sent');
      log.info({
        event: 'notification.sent',
        job: job.id,
        channel: job.channel,
        reference: job.lead.reference,
        attempts: job.attempts,
      });
    } catch (error) {
      const failure = asDeliveryFailure(error);
      const permanent = failure.permanent || job.attempts >= maxAttempts;
      const delayMs = Math.max(
        retryDelay(job.attempts, baseDelayMs, maxDelayMs),
        failure.retryAfterMs,
      );
      if (permanent) await markFailed(db, job.id, failure.summary);
      else await markRetry(db, job.id, delayMs, failure.summary);
      countNotification(permanent ? 'failed' : 'retried');
      log.warn({
        event: 'notification.failed',
        job: job.id,
        channel: job.channel,
        reference: job.lead.reference,
        attempts: job.attempts,
        permanent,
        error: failure.summary,
      });
    }
  }

  /**
   * Sends the jobs due when the round starts (a job retried during the round waits for the next),
   * a batch at a time, its jobs concurrently (a slow endpoint does not hold up the e-mails).
   */
  async function round(): Promise<number> {
    // +1 ms: the database keeps microseconds, so a job queued in this very millisecond is due too.
    const dueBy = new Date(Date.now() + 1);
    let handled = 0;
    while (!stopped) {
      const jobs = await claimJobs(db, batchSize, leaseMs, dueBy, channels);
      if (jobs.length === 0) return handled;
      // One queue per destination, run side by side: a slow webhook endpoint does not hold up the
      // e-mails or another endpoint. Within a queue jobs go one at a time, so a stop lets the send
      // in progress finish and hands the rest of the batch back at once.
      const queues = new Map<string, ClaimedJob[]>();
      for (const job of jobs) {
        const key = `${job.channel} ${job.target}`;
        queues.set(key, [...(queues.get(key) ?? []), job]);
      }
      await Promise.all(
        [...queues.values()].map(async (queue) => {
          for (const job of queue) {
            if (stopped) await releaseClaim(db, job.id);
            else {
              await deliver(job);
              handled += 1;
            }
          }
        }),
      );
    }
    return handled;
  }

  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let handled = 0;
      do {
        again = false;
        handled += await round();
      } while (again && !stopped);
      return handled;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  const safeDrain = () =>
    void drain().catch((error: unknown) =>
      log.error({ event: 'outbox.error', error: errorFacts(error) }),
    );

  return {
    drain,
    nudge: safeDrain,
    start() {
      timer ??= setInterval(safeDrain, pollMs);
      timer.unref();
      safeDrain();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
