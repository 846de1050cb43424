import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ContactInput } from '@/lib/contact-schema';
import type { EnquiryContext } from '@/lib/enquiry-context';
import type { Db } from '../db';
import { leads } from '../db/schema';
import { enqueueDeliveries, type DeliveryTargets } from '../outbox/enqueue';
import { consumeRateLimit, type RateLimit } from './rate-limit';
import { newReference } from './reference';

/** What storing an enquiry did: stored now, already stored (same form posted twice), or refused. */
export type StoreResult =
  | { outcome: 'stored' | 'duplicate'; leadId: string; reference: string }
  | { outcome: 'rate-limited' };

class RateLimited extends Error {}

/**
 * Stores an enquiry (with where it came from) and its delivery jobs (e-mail, one per webhook
 * endpoint of `meta.deliveries`) in ONE transaction (the transactional outbox): once this
 * resolves, they will be sent even if the process dies. The same `submissionId` (the
 * form token's nonce) stored twice yields the first enquiry and no second job. The client's
 * rate-limit counter is taken in the same transaction.
 * @throws on database errors (nothing is then stored).
 */
export async function storeEnquiry(
  db: Db,
  enquiry: ContactInput & EnquiryContext,
  meta: { submissionId: string; clientHash: string; rateLimit: RateLimit; now: Date; deliveries: DeliveryTargets },
): Promise<StoreResult> {
  try {
    return await db.transaction(async (tx) => {
      const existing = await findBySubmission(tx, meta.submissionId);
      if (existing) return { outcome: 'duplicate', ...existing };
      if (!(await consumeRateLimit(tx, meta.clientHash, meta.rateLimit, meta.now)))
        throw new RateLimited();
      const leadId = randomUUID();
      const [inserted] = await tx
        .insert(leads)
        .values({
          id: leadId,
          reference: newReference(),
          submissionId: meta.submissionId,
          ...enquiry,
          clientHash: meta.clientHash,
        })
        .onConflictDoNothing({ target: leads.submissionId })
        .returning({ leadId: leads.id, reference: leads.reference });
      if (!inserted) {
        // A concurrent post of the same form won the race; report its enquiry.
        const winner = await findBySubmission(tx, meta.submissionId);
        if (!winner) throw new Error('Enquiry vanished after a conflicting insert.');
        return { outcome: 'duplicate', ...winner };
      }
      await enqueueDeliveries(tx, leadId, meta.deliveries);
      return { outcome: 'stored', ...inserted };
    });
  } catch (error) {
    if (error instanceof RateLimited) return { outcome: 'rate-limited' };
    throw error;
  }
}

async function findBySubmission(db: Db, submissionId: string) {
  const [row] = await db
    .select({ leadId: leads.id, reference: leads.reference })
    .from(leads)
    .where(eq(leads.submissionId, submissionId));
  return row;
}
