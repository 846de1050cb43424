import 'server-only';
import type { Db } from '../platform/db';
import { appendAudit, type Actor } from '../platform/audit';
import { acknowledgeFailed, requeueFailed } from '../delivery/queue/operations';
import { enquiryIdOf } from '../features/contact';
import { requestIdOf } from '../features/privacy';

/**
 * Retrying and acknowledging failed deliveries by the reference an operator quotes, for the console
 * and the `leads` CLI: the queue knows jobs by owner only, so each feature that owns deliveries
 * says which owner its references name.
 */

/** Each feature's lookup from a reference to the owner of its deliveries. */
const owners: readonly ((db: Db, reference: string) => Promise<string | undefined>)[] = [
  enquiryIdOf, // an enquiry, `NH-…`: its e-mail, webhook and demo jobs
  requestIdOf, // a privacy request, `PR-…`: its link, acknowledgement, reply and `lead.erased` jobs
];

/** The owner of the deliveries quoted by `reference` (any case), or undefined when none has it. */
async function deliveryOwnerOf(db: Db, reference: string): Promise<string | undefined> {
  for (const ownerOf of owners) {
    const owner = await ownerOf(db, reference);
    if (owner) return owner;
  }
  return undefined;
}

/**
 * Re-queues failed deliveries for immediate delivery: every one, or those of the enquiry or
 * privacy request `reference`. Returns how many, or null when nothing has that reference.
 */
export async function retryFailedNotifications(db: Db, reference?: string): Promise<number | null> {
  if (reference === undefined) return requeueFailed(db);
  const id = await deliveryOwnerOf(db, reference);
  return id ? requeueFailed(db, { owners: [id] }) : null;
}

/**
 * Acknowledges the failed deliveries of the enquiry or privacy request `reference` (an operator
 * has seen them: they stop ringing the delivery alarm, and stay listed as failed). Returns how
 * many were newly acknowledged, or null when nothing has that reference.
 */
export async function acknowledgeFailedNotifications(
  db: Db,
  reference: string,
): Promise<number | null> {
  const id = await deliveryOwnerOf(db, reference);
  return id ? acknowledgeFailed(db, { owners: [id] }) : null;
}

/**
 * retryFailedNotifications with an audit row as `actor` (the console's operator or `cli`); null
 * when no enquiry or privacy request has `reference`.
 */
export async function retryDeliveries(
  db: Db,
  actor: Actor,
  reference?: string,
): Promise<number | null> {
  const count = await retryFailedNotifications(db, reference);
  if (count !== null)
    await appendAudit(
      db,
      actor,
      'retry',
      reference?.trim().toUpperCase() ?? 'all',
      `${count} job(s)`,
    );
  return count;
}

/**
 * acknowledgeFailedNotifications with an audit row as `actor`; null when no enquiry or privacy
 * request has `reference`.
 */
export async function acknowledgeDeliveries(
  db: Db,
  actor: Actor,
  reference: string,
): Promise<number | null> {
  const count = await acknowledgeFailedNotifications(db, reference);
  if (count !== null)
    await appendAudit(db, actor, 'acknowledge', reference.trim().toUpperCase(), `${count} job(s)`);
  return count;
}
