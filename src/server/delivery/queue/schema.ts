import 'server-only';
import {
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * State of a queued job: `pending` (waiting for its time), `sending` (claimed by a worker, see
 * `claimToken`), `sent` (done), `failed` (given up; stays visible until retried or acknowledged).
 */
export type JobStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * The job queue (src/server/queue): one row per job, written in the same transaction as the rows
 * it announces (the transactional outbox). The queue knows no feature: a job has a `kind`, a
 * payload its kind's zod schema validates, a deduplication key, a not-before time and an `owner`
 * (an opaque id, e.g. the enquiry's, so a feature can list and erase its jobs).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    /** What the job does, e.g. `enquiry.email`; names the handler that runs it. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** At most one job per key: enqueueing the same key again adds nothing. */
    dedupeKey: text('dedupe_key').notNull(),
    /** The record the job belongs to (opaque to the queue), e.g. an enquiry's id. */
    owner: text('owner'),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the job first became due (its not-before time): lateness is measured from here. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a pending job may next be tried (due_at, later after a failed attempt). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** The claim of the worker sending it: every write after the claim must present it. */
    claimToken: uuid('claim_token'),
    /** When a `sending` job's claim expires unless renewed (its worker died). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was sent, or given up on. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When an operator acknowledged a failed job: it no longer rings the alarm. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('jobs_dedupe_key_idx').on(table.dedupeKey),
    index('jobs_status_run_at_idx').on(table.status, table.runAt),
    index('jobs_owner_idx').on(table.owner),
  ],
);
