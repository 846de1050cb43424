import 'server-only';
import { retryDelay } from '@/lib/retry';
import type { Db } from '../db';
import { buildNotification, type NotificationAddresses } from '../email/notification';
import { isPermanentFailure, type SendMail } from '../email/transport';
import { errorFacts, log } from '../log';
import { countNotification } from '../metrics';
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
 * The outbox worker: claims due notification jobs, e-mails them with `send`, and records the
 * outcome. Temporary failures (connection errors, 4xx) are retried with exponential backoff;
 * permanent ones (5xx) and jobs out of attempts are marked failed and stay visible.
 * Delivery is at-least-once: a crash between sending and recording resends after the lease, with
 * the same Message-ID.
 */
export function createOutboxWorker(
  db: Db,
  send: SendMail,
  addresses: NotificationAddresses,
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

  async function deliver(job: ClaimedJob): Promise<void> {
    try {
      await send(buildNotification(job.lead, addresses));
      await markSent(db, job.id);
      countNotification('sent');
      log.info({
        event: 'notification.sent',
        job: job.id,
        reference: job.lead.reference,
        attempts: job.attempts,
      });
    } catch (error) {
      const facts = errorFacts(error);
      const summary = `${facts.type}${facts.code ? ` ${facts.code}` : ''}${facts.responseCode ? ` ${facts.responseCode}` : ''}`;
      const permanent = isPermanentFailure(error) || job.attempts >= maxAttempts;
      if (permanent) await markFailed(db, job.id, summary);
      else await markRetry(db, job.id, retryDelay(job.attempts, baseDelayMs, maxDelayMs), summary);
      countNotification(permanent ? 'failed' : 'retried');
      log.warn({
        event: 'notification.failed',
        job: job.id,
        reference: job.lead.reference,
        attempts: job.attempts,
        permanent,
        error: facts,
      });
    }
  }

  /** Sends the jobs due when the round starts (a job retried during the round waits for the next). */
  async function round(): Promise<number> {
    // +1 ms: the database keeps microseconds, so a job queued in this very millisecond is due too.
    const dueBy = new Date(Date.now() + 1);
    let handled = 0;
    while (!stopped) {
      const jobs = await claimJobs(db, batchSize, leaseMs, dueBy);
      if (jobs.length === 0) return handled;
      for (const job of jobs) {
        if (stopped) await releaseClaim(db, job.id);
        else {
          await deliver(job);
          handled += 1;
        }
      }
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
