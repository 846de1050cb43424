import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { outbox } from '../db/schema';

/** Where a lead is delivered besides the provider's mailbox: `WEBHOOK_URLS` (issue 12). */
export type DeliveryTargets = { webhookUrls: readonly string[] };

/**
 * Queues every delivery of a lead in the caller's transaction, so the lead and its deliveries are
 * stored together or not at all (the transactional outbox): the provider's notification e-mail and
 * one webhook job per endpoint of `targets` (issue 12). Only for leads: spam is never queued.
 * Idempotent: a lead has at most one job per channel and target.
 */
export async function enqueueDeliveries(
  tx: Db,
  leadId: string,
  targets: DeliveryTargets,
): Promise<void> {
  await tx
    .insert(outbox)
    .values([
      { id: randomUUID(), leadId, channel: 'email' as const, target: '' },
      ...targets.webhookUrls.map((url) => ({
        id: randomUUID(),
        leadId,
        channel: 'webhook' as const,
        target: url,
      })),
    ])
    .onConflictDoNothing();
}
