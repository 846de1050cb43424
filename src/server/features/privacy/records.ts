import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { privacyRequests, type PrivacyRequestKind } from './schema';
import { newReference } from '../../platform/reference';
import { dropAdditionsOf } from './grievance-additions';

/** A stored privacy request (a row of `privacy_requests`). */
export type PrivacyRequest = typeof privacyRequests.$inferSelect;

/** Days to answer a request from its verification (DPDP Rules 2025, rule 14: 90 days). */
export const ANSWER_DAYS = 90;

/**
 * Stores a verified request in the caller's transaction: a new `PR-` reference (newReference), the
 * keyed hash and
 * (while open) the address and details, `due_at` = `verifiedAt` + ANSWER_DAYS.
 * @returns the row, or undefined when a request with the same `linkNonce` exists (a link used
 * twice honours one request).
 */
export async function openRequest(
  tx: Db,
  request: {
    kind: PrivacyRequestKind;
    email: string;
    emailHash: string;
    details: string;
    linkNonce: string;
    requestedAt: Date;
    verifiedAt: Date;
    /** Its reference when chosen beforehand (default a new one). */
    reference?: string;
  },
): Promise<PrivacyRequest | undefined> {
  const [row] = await tx
    .insert(privacyRequests)
    .values({
      id: randomUUID(),
      reference: request.reference ?? newReference('PR'),
      kind: request.kind,
      linkNonce: request.linkNonce,
      emailHash: request.emailHash,
      email: request.email,
      details: request.details || null,
      requestedAt: request.requestedAt,
      verifiedAt: request.verifiedAt,
      dueAt: new Date(request.verifiedAt.getTime() + ANSWER_DAYS * 86_400_000),
    })
    .onConflictDoNothing({ target: privacyRequests.linkNonce })
    .returning();
  return row;
}

/**
 * Closes the open request `id` at `now` with `outcome` (no personal data, e.g. `copy sent: 2
 * enquiries, 1 demo`), in the caller's transaction: the address and details are cleared and the row
 * stays as a tombstone (id, kind, dates, keyed hash, outcome) proving the request was honoured
 * (DPDP Act s.8(7)). Returns whether it was open.
 */
export async function closeRequest(
  tx: Db,
  id: string,
  outcome: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(privacyRequests)
    .set({ status: 'closed', email: null, details: null, closedAt: now, outcome })
    .where(and(eq(privacyRequests.id, id), eq(privacyRequests.status, 'open')))
    .returning({ id: privacyRequests.id });
  await dropAdditionsOf(tx, [id]);
  return rows.length > 0;
}

/** The request `id`, or undefined. */
export async function findRequest(db: Db, id: string): Promise<PrivacyRequest | undefined> {
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id));
  return row;
}

/** The id of the request `reference` (any case, spaces around), or undefined. */
export async function requestIdOf(db: Db, reference: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: privacyRequests.id })
    .from(privacyRequests)
    .where(eq(privacyRequests.reference, reference.trim().toUpperCase()));
  return row?.id;
}

/** `n` and `word` pluralised with `plural`, e.g. `2 enquiries`, `1 demo`. */
export function counted(n: number, word: string, plural = `${word}s`): string {
  return `${n} ${n === 1 ? word : plural}`;
}
