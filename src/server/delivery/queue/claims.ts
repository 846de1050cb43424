import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from './schema';

/** A job as claimed from the table: its row facts and the claim that fences every later write. */
export type Claim = {
  id: string;
  kind: string;
  payload: unknown;
  owner: string | null;
  attempts: number;
  /** Presented by every write after the claim; a write with a claim that was taken over changes nothing. */
  token: string;
};

const at = (msFromNow: number) => sql`now() + ${msFromNow} * interval '1 millisecond'`;

/**
 * Claims the next due job of `kinds`: a pending job whose time has come by `dueBy` (and by the
 * database's clock), or a `sending` job whose claim expired (its worker died). The row is locked
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers on several instances never claim the same job;
 * the claim lasts `leaseMs` unless renewed, and counts an attempt.
 * @returns the claim, or null when no job is due.
 */
export async function claimNext(
  db: Db,
  kinds: readonly string[],
  leaseMs: number,
  dueBy: Date,
): Promise<Claim | null> {
  const token = randomUUID();
  const until = sql`least(now(), ${dueBy.toISOString()}::timestamptz)`;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, [...kinds]),
        sql`((${jobs.status} = 'pending' and ${jobs.runAt} <= ${until})
          or (${jobs.status} = 'sending' and ${jobs.lockedUntil} <= ${until}))`,
      ),
    )
    .orderBy(jobs.runAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(jobs)
    .set({
      status: 'sending',
      claimToken: token,
      lockedUntil: at(leaseMs),
      attempts: sql`${jobs.attempts} + 1`,
    })
    .where(inArray(jobs.id, due))
    .returning({
      id: jobs.id,
      kind: jobs.kind,
      payload: jobs.payload,
      owner: jobs.owner,
      attempts: jobs.attempts,
    });
  return claimed ? { ...claimed, token } : null;
}

/** The row of `claim` while this claim still holds it. */
const held = (claim: Claim) =>
  and(eq(jobs.id, claim.id), eq(jobs.status, 'sending'), eq(jobs.claimToken, claim.token));

/** Extends `claim` by `leaseMs` from now; false when it was lost (another worker took the job). */
export async function renewClaim(db: Db, claim: Claim, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: at(leaseMs) })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Records the job of `claim` as done; false (nothing changed) when the claim was lost. */
export async function markSent(db: Db, claim: Claim): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'sent',
      finishedAt: sql`now()`,
      lastError: null,
      claimToken: null,
      lockedUntil: null,
    })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Puts the job of `claim` back, to be tried again in `delayMs`; false when the claim was lost. */
export async function markRetry(
  db: Db,
  claim: Claim,
  delayMs: number,
  error: string,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'pending',
      runAt: at(delayMs),
      lastError: error,
      claimToken: null,
      lockedUntil: null,
    })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Gives up on the job of `claim` (it stays visible as failed); false when the claim was lost. */
export async function markFailed(db: Db, claim: Claim, error: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'failed',
      lastError: error,
      finishedAt: sql`now()`,
      claimToken: null,
      lockedUntil: null,
    })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Hands back every claim on the database at once (pending, due now): for a process that knows no
 * other worker can exist, i.e. PGlite, which one process owns, after a restart that followed a
 * crash. Returns how many claims were released.
 */
export async function releaseAllClaims(db: Db): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'pending', runAt: sql`now()`, claimToken: null, lockedUntil: null })
    .where(eq(jobs.status, 'sending'))
    .returning({ id: jobs.id });
  return rows.length;
}
