import 'server-only';
import { retryDelay } from '@/lib/retry';
import type { Db } from '../../platform/db';
import { errorFacts, log } from '../../platform/log';
import { countJob } from '../../platform/metrics';
import {
  claimNext,
  markFailed,
  markRetry,
  markSent,
  releaseAllClaims,
  renewClaim,
  type Claim,
} from './claims';
import { asJobFailure, JobFailure } from './failure';
import type { Registration } from './job';

/** Pacing of a worker (all times in ms). */
export type WorkerOptions = {
  /**
   * How long a claim lasts unless renewed; it is renewed every third of it while the job runs, so
   * a job held by a worker that died is taken over after at most this plus `pollMs`. Default 30 s.
   */
  leaseMs?: number;
  /** Poll interval when idle. Default 5 s. */
  pollMs?: number;
  /**
   * Hand back every claim on the database when the worker starts: only for a database no other
   * process can use (PGlite), so a restart after a crash sends at once what the dead process held.
   */
  sole?: boolean;
};

/** A running worker (see createWorker). */
export type QueueWorker = {
  /** Runs every job that is due now; resolves with how many were run. */
  drain(): Promise<number>;
  /** Asks for a drain soon (e.g. after a job was enqueued). */
  nudge(): void;
  /** Starts polling every `pollMs`. */
  start(): void;
  /**
   * Stops for good (graceful shutdown): claims nothing more, lets the jobs in progress finish and
   * record their outcome; resolves once they have.
   */
  stop(): Promise<void>;
};

const DEFAULT_RETRY = { baseDelayMs: 30_000, maxDelayMs: 3_600_000, maxAttempts: 20 };

/**
 * The queue's worker: for each registered kind, `concurrency` lanes each claim one due job at a
 * time (claimNext, just before running it), run its handler with the payload validated again by
 * the kind's schema, renew the claim while the handler runs, and record the outcome with writes
 * fenced by the claim (a worker whose claim was taken over changes nothing). Temporary failures
 * are retried with exponential backoff (at least the failure's `retryAfterMs`); permanent ones and
 * jobs out of attempts are marked failed and stay visible. Kinds run side by side, so a slow
 * receiver of one kind does not hold up another. Delivery is at least once: a crash between a
 * send and its record resends after the lease, with the same job id.
 */
export function createWorker(
  db: Db,
  registrations: readonly Registration[],
  options: WorkerOptions = {},
): QueueWorker {
  const { leaseMs = 30_000, pollMs = 5_000, sole = false } = options;
  let running: Promise<number> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let reclaimed: Promise<void> | undefined;

  async function run(registration: Registration, claim: Claim): Promise<void> {
    const retry = { ...DEFAULT_RETRY, ...registration.retry };
    const controller = new AbortController();
    let finished = false;
    const facts = { job: claim.id, kind: claim.kind, owner: claim.owner, attempts: claim.attempts };
    const renewal = setInterval(() => {
      renewClaim(db, claim, leaseMs)
        .then((held) => {
          if (held || finished) return;
          controller.abort();
          log.warn({ event: 'job.claim_lost', ...facts }, 'Another worker took the job over');
        })
        .catch((error: unknown) =>
          log.warn({ event: 'job.renew_failed', ...facts, error: errorFacts(error) }),
        );
    }, leaseMs / 3);
    try {
      const payload = registration.kind.payload.safeParse(claim.payload);
      if (!payload.success) throw new JobFailure('payload does not match its kind', true);
      const result = await registration.handler({
        id: claim.id,
        kind: claim.kind,
        payload: payload.data,
        attempts: claim.attempts,
        owner: claim.owner,
        signal: controller.signal,
      });
      finished = true;
      const recorded = await markSent(db, claim);
      countJob(claim.kind, 'sent');
      log.info({
        event: result ? 'job.skipped' : 'job.sent',
        ...facts,
        ...(result ? { reason: result.skipped } : {}),
        ...(recorded ? {} : { claimLost: true }),
      });
    } catch (error) {
      finished = true;
      const failure = asJobFailure(error);
      const permanent = failure.permanent || claim.attempts >= retry.maxAttempts;
      const delayMs = Math.max(
        retryDelay(claim.attempts, retry.baseDelayMs, retry.maxDelayMs),
        failure.retryAfterMs,
      );
      const recorded = permanent
        ? await markFailed(db, claim, failure.summary)
        : await markRetry(db, claim, delayMs, failure.summary);
      countJob(claim.kind, permanent ? 'failed' : 'retried');
      log.warn({
        event: 'job.failed',
        ...facts,
        permanent,
        error: failure.summary,
        ...(recorded ? {} : { claimLost: true }),
      });
    } finally {
      clearInterval(renewal);
    }
  }

  /** Runs the jobs of one kind due by `dueBy`, one at a time, until none is left. */
  async function lane(registration: Registration, dueBy: Date): Promise<number> {
    let handled = 0;
    while (!stopped) {
      const claim = await claimNext(db, [registration.kind.name], leaseMs, dueBy);
      if (!claim) break;
      await run(registration, claim);
      handled += 1;
    }
    return handled;
  }

  /** One round: the jobs due when it starts (a job retried during the round waits for the next). */
  async function round(): Promise<number> {
    if (sole) await (reclaimed ??= reclaim());
    // +1 ms: the database keeps microseconds, so a job queued in this very millisecond is due too.
    const dueBy = new Date(Date.now() + 1);
    const lanes = registrations.flatMap((registration) =>
      Array.from({ length: registration.concurrency }, () => lane(registration, dueBy)),
    );
    return (await Promise.all(lanes)).reduce((sum, n) => sum + n, 0);
  }

  async function reclaim(): Promise<void> {
    const released = await releaseAllClaims(db).catch((error: unknown) => {
      reclaimed = undefined;
      throw error;
    });
    if (released > 0) log.info({ event: 'job.claims_released', count: released });
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
      log.error({ event: 'queue.error', error: errorFacts(error) }),
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
