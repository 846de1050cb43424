import 'server-only';
import type { z } from 'zod';

/**
 * A kind of job: its name (e.g. `enquiry.email`) and the zod schema of its payload, checked when
 * the job is enqueued and again when it is claimed. Features define their kinds with defineJob;
 * the queue only ever sees the name and the schema.
 */
export type JobKind<Payload> = { name: string; payload: z.ZodType<Payload> };

/** Defines a kind of job (see JobKind). */
export function defineJob<Payload>(name: string, payload: z.ZodType<Payload>): JobKind<Payload> {
  return { name, payload };
}

/** A claimed job as its handler receives it. */
export type ClaimedJob<Payload = unknown> = {
  id: string;
  kind: string;
  /** The payload, validated by its kind's schema. */
  payload: Payload;
  /** This attempt's number, 1 for the first. */
  attempts: number;
  /** The owner given when it was enqueued (e.g. an enquiry's id), or null. */
  owner: string | null;
  /** Aborted when the claim is lost (another worker took the job over) or the worker stops hard. */
  signal: AbortSignal;
};

/**
 * Runs one job. Resolves when it is done (or, with `{ skipped: reason }`, when there is nothing
 * left to do, e.g. an invitation for a demo moved since: logged, counted as done).
 * @throws JobFailure (any other error counts as a temporary failure).
 */
export type JobHandler<Payload> = (job: ClaimedJob<Payload>) => Promise<void | { skipped: string }>;

/** Retry policy of a kind (all times in ms). */
export type RetryPolicy = {
  /** Delay before the 2nd attempt; doubles each time (exponential backoff). Default 30 s. */
  baseDelayMs?: number;
  /** Longest delay between attempts. Default 1 h. */
  maxDelayMs?: number;
  /** Attempts before a temporarily failing job is marked failed. Default 20 (about 16 h). */
  maxAttempts?: number;
};

/** A kind with its handler, as registered with the worker (see handle). */
export type Registration = {
  kind: JobKind<unknown>;
  handler: JobHandler<unknown>;
  retry: RetryPolicy;
  /** Jobs of this kind run at once by one worker (default 2). */
  concurrency: number;
};

/**
 * Registers `handler` for the jobs of `kind`, with its retry policy and concurrency; the result
 * goes into the list a worker is created with (src/server/wiring/jobs.ts builds that list).
 */
export function handle<Payload>(
  kind: JobKind<Payload>,
  handler: JobHandler<Payload>,
  options: { retry?: RetryPolicy; concurrency?: number } = {},
): Registration {
  return {
    kind: kind as JobKind<unknown>,
    handler: handler as JobHandler<unknown>,
    retry: options.retry ?? {},
    concurrency: options.concurrency ?? 2,
  };
}
