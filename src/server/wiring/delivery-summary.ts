import 'server-only';
import { and, count, eq, isNull } from 'drizzle-orm';
import { summarizeDelivery, type DeliverySummary } from '@/lib/delivery-alarm';
import type { Db } from '../platform/db';
import { leads } from '../features/contact/schema';
import { readBacklog } from '../delivery/queue/summary';

/**
 * Reads the delivery summary from the database: the queue's backlog per channel (jobs due and not
 * delivered, how long the oldest has been due, jobs scheduled for later, failed jobs not
 * acknowledged) and quarantined enquiries (spam verdict, not released).
 * @throws when the database does not answer.
 */
export async function readDeliverySummary(db: Db): Promise<DeliverySummary> {
  const [channels, [quarantined]] = await Promise.all([
    readBacklog(db),
    db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.verdict, 'spam'), isNull(leads.releasedAt))),
  ]);
  return summarizeDelivery(channels, quarantined!.n);
}
