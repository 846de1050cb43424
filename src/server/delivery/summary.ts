import 'server-only';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DeliverySummary } from '@/lib/delivery-alarm';
import type { Db } from '../db';
import { leads, outbox } from '../db/schema';

/**
 * Reads the delivery summary (issue 10, item 7) from the database: jobs of every channel not yet
 * delivered and the age of the oldest (by the database's clock), failed jobs, and quarantined
 * enquiries (spam verdict, not released).
 * @throws when the database does not answer.
 */
export async function readDeliverySummary(db: Db): Promise<DeliverySummary> {
  const [[jobs], [failed], [quarantined]] = await Promise.all([
    db
      .select({
        pending: count(),
        oldest: sql<string | null>`floor(extract(epoch from now() - min(${outbox.createdAt})))`,
      })
      .from(outbox)
      .where(inArray(outbox.status, ['pending', 'sending'])),
    db.select({ n: count() }).from(outbox).where(eq(outbox.status, 'failed')),
    db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.verdict, 'spam'), isNull(leads.releasedAt))),
  ]);
  return {
    pending: jobs!.pending,
    oldestPendingSeconds: Math.max(0, Number(jobs!.oldest ?? 0)),
    failed: failed!.n,
    quarantined: quarantined!.n,
  };
}
