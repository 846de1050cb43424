import 'server-only';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from './schema';

/**
 * A held job is pending with no time to run (`run_at` infinity): no worker claims it, yet it still
 * counts as unsent everywhere (an erasure waits for it, the delivery alarm rings for it) until an
 * operator releases or drops it.
 */
const NEVER = sql`'infinity'::timestamptz`;
const isHeld = and(eq(jobs.status, 'pending'), sql`${jobs.runAt} = ${NEVER}`);

/** A held job as listed to an operator (no payload: it may hold a person's data). */
export type HeldJob = {
  id: string;
  kind: string;
  owner: string | null;
  dueAt: Date;
  attempts: number;
};

/** Which held jobs an operation applies to: all, or these ids. */
const heldIn = (ids?: readonly string[]): SQL | undefined =>
  and(isHeld, ids ? inArray(jobs.id, [...ids]) : undefined);

const listed = {
  id: jobs.id,
  kind: jobs.kind,
  owner: jobs.owner,
  dueAt: jobs.dueAt,
  attempts: jobs.attempts,
};

/**
 * Holds every job that was due or claimed at `at` (when a restored backup's dump ended): a claimed one, or a
 * pending one whose first due time had come (a retry waiting included), since it may have been
 * sent after the backup was taken. Jobs not yet due then (future reminders) are left to run.
 * @returns the jobs held, the earliest due first (then by id)
 */
export async function holdJobsDueBy(db: Db, at: Date): Promise<HeldJob[]> {
  const rows = await db
    .update(jobs)
    .set({ status: 'pending', runAt: NEVER, claimToken: null, lockedUntil: null })
    .where(
      or(
        eq(jobs.status, 'sending'),
        and(eq(jobs.status, 'pending'), sql`${jobs.dueAt} <= ${at.toISOString()}::timestamptz`),
      ),
    )
    .returning(listed);
  // As listHeldJobs orders them (a uuid orders as its hex text).
  return rows.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || (a.id < b.id ? -1 : 1));
}

/** The held jobs, the earliest due first (then by id). */
export function listHeldJobs(db: Db): Promise<HeldJob[]> {
  return db.select(listed).from(jobs).where(isHeld).orderBy(asc(jobs.dueAt), asc(jobs.id));
}

/**
 * Releases held jobs (all, or `ids`): due now, sent once by the running site's worker.
 * @returns the ids released
 */
export async function releaseHeldJobs(db: Db, ids?: readonly string[]): Promise<string[]> {
  const rows = await db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(heldIn(ids))
    .returning({ id: jobs.id });
  return rows.map((row) => row.id);
}

/**
 * Drops held jobs (all, or `ids`): never sent, kept as failed and acknowledged (no alarm), with the
 * reason, so the enquiry's delivery state says so.
 * @returns the ids dropped
 */
export async function dropHeldJobs(db: Db, ids?: readonly string[]): Promise<string[]> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'failed',
      runAt: sql`now()`,
      finishedAt: sql`now()`,
      acknowledgedAt: sql`now()`,
      lastError: 'dropped by an operator after a restore (it may have been sent before)',
    })
    .where(heldIn(ids))
    .returning({ id: jobs.id });
  return rows.map((row) => row.id);
}
