import 'server-only';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { demoBookings, leads, outbox, type OutboxChannel } from '../db/schema';

/**
 * A claimed delivery job with the lead it announces: its channel, target, the stored lead and, for
 * a demo invitation (issue 16), the booking as it is now (else null).
 */
export type ClaimedJob = {
  id: string;
  attempts: number;
  channel: OutboxChannel;
  target: string;
  lead: typeof leads.$inferSelect;
  booking: typeof demoBookings.$inferSelect | null;
  /** What the job delivers, frozen when it was queued (e.g. a `demo.*` webhook event), or null. */
  payload: unknown;
};

const at = (msFromNow: number) => sql`now() + ${msFromNow} * interval '1 millisecond'`;

/**
 * Claims up to `limit` jobs due by `dueBy` (and by the database's clock): pending jobs whose time
 * has come, and `sending` jobs whose claim expired (their worker died). The select uses
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers on several instances never claim the same job.
 * A claim lasts `leaseMs`. Only jobs of `channels` (those this worker can send) are claimed.
 */
export async function claimJobs(
  db: Db,
  limit: number,
  leaseMs: number,
  dueBy: Date,
  channels: OutboxChannel[],
): Promise<ClaimedJob[]> {
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          inArray(outbox.status, ['pending', 'sending']),
          inArray(outbox.channel, channels),
          lte(outbox.nextAttemptAt, sql`least(now(), ${dueBy.toISOString()}::timestamptz)`),
        ),
      )
      .orderBy(outbox.nextAttemptAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await tx
      .update(outbox)
      .set({ status: 'sending', attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: at(leaseMs) })
      .where(inArray(outbox.id, due))
      .returning({
        id: outbox.id,
        attempts: outbox.attempts,
        channel: outbox.channel,
        target: outbox.target,
        leadId: outbox.leadId,
        bookingId: outbox.bookingId,
        payload: outbox.payload,
      });
    if (claimed.length === 0) return [];
    const rows = await tx
      .select()
      .from(leads)
      .where(
        inArray(
          leads.id,
          claimed.map((job) => job.leadId),
        ),
      );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const bookingIds = claimed.flatMap((job) => (job.bookingId ? [job.bookingId] : []));
    const bookings = bookingIds.length
      ? await tx.select().from(demoBookings).where(inArray(demoBookings.id, bookingIds))
      : [];
    const bookingById = new Map(bookings.map((row) => [row.id, row]));
    return claimed.flatMap((job) => {
      const lead = byId.get(job.leadId);
      const booking = job.bookingId ? (bookingById.get(job.bookingId) ?? null) : null;
      return lead
        ? [
            {
              id: job.id,
              attempts: job.attempts,
              channel: job.channel,
              target: job.target,
              lead,
              booking,
              payload: job.payload,
            },
          ]
        : [];
    });
  });
}

/** Records a delivered job. */
export async function markSent(db: Db, id: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}

/** Puts a job back in the queue, to be tried again in `delayMs`. */
export async function markRetry(db: Db, id: string, delayMs: number, error: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'pending', nextAttemptAt: at(delayMs), lastError: error })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}

/** Gives up on a job: it stays visible as `failed` until `requeueFailed` (`leads retry`). */
export async function markFailed(db: Db, id: string, error: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'failed', lastError: error })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}

/** Re-queues every failed job for immediate delivery with a fresh attempt count; returns how many. */
export async function requeueFailed(db: Db): Promise<number> {
  const rows = await db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()` })
    .where(eq(outbox.status, 'failed'))
    .returning({ id: outbox.id });
  return rows.length;
}

/**
 * Hands a claimed job back unsent (the worker is shutting down): pending, due now, its attempt
 * not counted, so this or another instance takes it at once instead of after the lease.
 */
export async function releaseClaim(db: Db, id: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'pending', attempts: sql`${outbox.attempts} - 1`, nextAttemptAt: sql`now()` })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}
