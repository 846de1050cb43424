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

/** A feature's lookup from a reference to the owner of its deliveries. */
type OwnerLookup = {
  ownerOf: (db: Db, reference: string) => Promise<string | undefined>;
  /** Only admins may act on these deliveries (a privacy request's mails are an admin's work). */
  adminOnly: boolean;
};

/** Each feature's lookup, in the order tried. */
const owners: readonly OwnerLookup[] = [
  // an enquiry, `NH-…`: its e-mail, webhook and demo jobs
  { ownerOf: enquiryIdOf, adminOnly: false },
  // a privacy request, `PR-…`: its link, acknowledgement, reply and `lead.erased` jobs
  { ownerOf: requestIdOf, adminOnly: true },
];

/** The owner of the deliveries quoted by `reference` (any case), or undefined when none has it. */
async function deliveryOwnerOf(
  db: Db,
  reference: string,
): Promise<{ id: string; adminOnly: boolean } | undefined> {
  for (const { ownerOf, adminOnly } of owners) {
    const id = await ownerOf(db, reference);
    if (id) return { id, adminOnly };
  }
  return undefined;
}

/**
 * Re-queues failed deliveries for immediate delivery: every one, or those of the enquiry or
 * privacy request `reference`. Returns how many, or null when nothing has that reference.
 */
export async function retryFailedNotifications(db: Db, reference?: string): Promise<number | null> {
  if (reference === undefined) return requeueFailed(db);
  const owner = await deliveryOwnerOf(db, reference);
  return owner ? requeueFailed(db, { owners: [owner.id] }) : null;
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
  const owner = await deliveryOwnerOf(db, reference);
  return owner ? acknowledgeFailed(db, { owners: [owner.id] }) : null;
}

/**
 * What an operator's retry or acknowledgement did: how many jobs, null when no enquiry or
 * privacy request has the reference, `refused` when a sales operator quoted a privacy request's.
 */
export type DeliveryAct = number | null | 'refused';

/**
 * Runs `act` (retry or acknowledge) on the deliveries of `reference` as `actor`, with its audit
 * row in the same transaction. A privacy request's deliveries are an admin's: anyone else is
 * refused, and the refusal audited.
 */
function deliveryActAs(
  db: Db,
  actor: Actor,
  action: 'retry' | 'acknowledge',
  reference: string,
  act: (tx: Db, owner: string) => Promise<number>,
): Promise<DeliveryAct> {
  const ref = reference.trim().toUpperCase();
  return db.transaction(async (tx) => {
    const owner = await deliveryOwnerOf(tx, reference);
    if (!owner) return null;
    if (owner.adminOnly && actor.role !== 'admin') {
      await appendAudit(tx, actor, 'refused', ref, `${action} needs admin`);
      return 'refused';
    }
    const count = await act(tx, owner.id);
    await appendAudit(tx, actor, action, ref, `${count} job(s)`);
    return count;
  });
}

/**
 * retryFailedNotifications with an audit row as `actor` (the console's operator or `cli`), in
 * one transaction; every failed delivery (no `reference`) only for an admin or `cli`.
 */
export async function retryDeliveries(
  db: Db,
  actor: Actor,
  reference?: string,
): Promise<DeliveryAct> {
  if (reference !== undefined)
    return deliveryActAs(db, actor, 'retry', reference, (tx, owner) =>
      requeueFailed(tx, { owners: [owner] }),
    );
  if (actor.role !== 'admin') return 'refused';
  return db.transaction(async (tx) => {
    const count = await requeueFailed(tx);
    await appendAudit(tx, actor, 'retry', 'all', `${count} job(s)`);
    return count;
  });
}

/** acknowledgeFailedNotifications with an audit row as `actor`, in one transaction. */
export function acknowledgeDeliveries(
  db: Db,
  actor: Actor,
  reference: string,
): Promise<DeliveryAct> {
  return deliveryActAs(db, actor, 'acknowledge', reference, (tx, owner) =>
    acknowledgeFailed(tx, { owners: [owner] }),
  );
}
