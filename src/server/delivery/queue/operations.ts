import 'server-only';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from './schema';

/** Which failed jobs an operation applies to: all, or those of some owners. */
export type JobScope = { owners?: readonly string[] };

const failedIn = (scope: JobScope): SQL | undefined =>
  and(eq(jobs.status, 'failed'), scope.owners ? inArray(jobs.owner, [...scope.owners]) : undefined);

/**
 * Re-queues failed jobs (all, or those of `scope.owners`) for immediate delivery with a fresh
 * attempt count and no acknowledgement; returns how many.
 */
export async function requeueFailed(db: Db, scope: JobScope = {}): Promise<number> {
  if (scope.owners?.length === 0) return 0;
  const rows = await db
    .update(jobs)
    .set({
      status: 'pending',
      attempts: 0,
      dueAt: sql`now()`,
      runAt: sql`now()`,
      acknowledgedAt: null,
    })
    .where(failedIn(scope))
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * Acknowledges failed jobs (all, or those of `scope.owners`): an operator has seen them, so they
 * no longer ring the delivery alarm; they stay failed and can still be re-queued. Returns how many
 * were newly acknowledged.
 */
export async function acknowledgeFailed(db: Db, scope: JobScope = {}): Promise<number> {
  if (scope.owners?.length === 0) return 0;
  const rows = await db
    .update(jobs)
    .set({ acknowledgedAt: sql`now()` })
    .where(and(failedIn(scope), isNull(jobs.acknowledgedAt)))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Deletes every job of `owners` (their records are erased); returns how many. */
export async function dropJobsOf(db: Db, owners: readonly string[]): Promise<number> {
  if (owners.length === 0) return 0;
  const rows = await db
    .delete(jobs)
    .where(inArray(jobs.owner, [...owners]))
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * Deletes the sent jobs of `kind`, for a kind whose payload holds personal data that must not
 * outlive its delivery; returns how many.
 */
export async function dropSentJobs(db: Db, kind: string): Promise<number> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.status, 'sent')))
    .returning({ id: jobs.id });
  return rows.length;
}
