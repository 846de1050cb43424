import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { outbox } from '../db/schema';

/**
 * Queues every delivery of a lead (today the provider's notification e-mail) in the caller's
 * transaction, so the lead and its deliveries are stored together or not at all (the
 * transactional outbox). Idempotent: a lead has at most one job per channel and target.
 */
export async function enqueueDeliveries(tx: Db, leadId: string): Promise<void> {
  await tx
    .insert(outbox)
    .values({ id: randomUUID(), leadId, channel: 'email', target: '' })
    .onConflictDoNothing();
}
