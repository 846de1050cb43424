import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { summarizePrivacy, type PrivacySummary } from '@/lib/privacy-alarm';
import { appendAudit, type Actor } from '../../platform/audit';
import type { Db } from '../../platform/db';
import { privacyRequests, type PrivacyRequestKind } from './schema';
import { enqueue } from '../../delivery/queue/enqueue';
import { privacyReplyJob } from './reply';
import { additionsOf, dropAdditionsOf, type GrievanceAddition } from './grievance-additions';

/**
 * The console's side of privacy requests: list them, show one, assign it to an admin, answer it
 * by e-mail (which closes it). Requests carry a person's address and words about their own data,
 * so only admins handle them: every function here refuses any other role, whatever the caller
 * checked before (docs/operations.md, "Privacy requests in the console").
 */

/** One row of the privacy list: no address, no details (those are on the request's page). */
export type PrivacyRequestRow = {
  reference: string;
  kind: PrivacyRequestKind;
  requestedAt: Date;
  verifiedAt: Date;
  dueAt: Date;
  assignedTo: string | null;
  closedAt: Date | null;
  outcome: string | null;
};

/**
 * A request with its address and the person's words (null once closed), and, for a grievance, what
 * later grievances from the address added, each with how it came (empty once closed).
 */
export type PrivacyRequestDetail = PrivacyRequestRow & {
  status: 'open' | 'closed';
  email: string | null;
  details: string | null;
  additions: GrievanceAddition[];
};

/** Longest reply an admin may send (characters). */
export const PRIVACY_REPLY_MAX = 10_000;

/**
 * A reply: trimmed, not empty, at most PRIVACY_REPLY_MAX characters, and no control characters
 * besides line breaks and tabs.
 */
const replySchema = z
  .string()
  .trim()
  .min(1)
  .max(PRIVACY_REPLY_MAX)
  .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text));

/** Whether `actor` may see and answer privacy requests: admins only. */
export function mayHandlePrivacy(actor: Actor): boolean {
  return actor.role === 'admin';
}

/** @throws Error when `actor` is not an admin (a caller forgot its own role check). */
export function requireAdmin(actor: Actor): void {
  if (!mayHandlePrivacy(actor)) throw new Error('Privacy requests are handled by admins only');
}

/** A reference as typed (any case, spaces around) in its stored form. */
export const normalise = (reference: string) => reference.trim().toUpperCase();

const rowColumns = {
  reference: privacyRequests.reference,
  kind: privacyRequests.kind,
  requestedAt: privacyRequests.requestedAt,
  verifiedAt: privacyRequests.verifiedAt,
  dueAt: privacyRequests.dueAt,
  assignedTo: privacyRequests.assignedTo,
  closedAt: privacyRequests.closedAt,
  outcome: privacyRequests.outcome,
};

/**
 * Open requests, the earliest due first (then the earliest verified), or closed ones (the
 * tombstones), the latest closed first; at most `limit`.
 * @throws Error when `actor` is not an admin.
 */
export async function listPrivacyRequests(
  db: Db,
  actor: Actor,
  { status, limit = 200 }: { status: 'open' | 'closed'; limit?: number },
): Promise<PrivacyRequestRow[]> {
  requireAdmin(actor);
  return db
    .select(rowColumns)
    .from(privacyRequests)
    .where(eq(privacyRequests.status, status))
    .orderBy(
      ...(status === 'open'
        ? [asc(privacyRequests.dueAt), asc(privacyRequests.verifiedAt)]
        : [desc(privacyRequests.closedAt), desc(privacyRequests.reference)]),
    )
    .limit(limit);
}

/**
 * The request `reference` with its address and details while open, or undefined. Opening an open
 * request (it shows personal data) is written to the audit log as `actor`'s, by reference only.
 * @throws Error when `actor` is not an admin.
 */
export async function viewPrivacyRequest(
  db: Db,
  actor: Actor,
  reference: string,
): Promise<PrivacyRequestDetail | undefined> {
  requireAdmin(actor);
  const [row] = await db
    .select({
      ...rowColumns,
      id: privacyRequests.id,
      status: privacyRequests.status,
      email: privacyRequests.email,
      details: privacyRequests.details,
    })
    .from(privacyRequests)
    .where(eq(privacyRequests.reference, normalise(reference)));
  if (!row) return undefined;
  if (row.status === 'open') await appendAudit(db, actor, 'privacy-view', row.reference);
  const { id, ...detail } = row;
  return { ...detail, additions: await additionsOf(db, id) };
}

/** What assigning or answering a request did. */
export type PrivacyChange =
  'assigned' | 'unchanged' | 'replied' | 'not-found' | 'closed' | 'invalid';

/** `not-found` or `closed` for a request that could not be changed as open. */
async function whyNotOpen(tx: Db, reference: string): Promise<'not-found' | 'closed'> {
  const [row] = await tx
    .select({ status: privacyRequests.status })
    .from(privacyRequests)
    .where(eq(privacyRequests.reference, reference));
  return row ? 'closed' : 'not-found';
}

/** Finds an operator of the console by e-mail (any case), in the caller's transaction. */
export type FindOperator = (tx: Db, email: string) => Promise<Actor | undefined>;

/**
 * Assigns the open request `reference` to the admin operator `assignee` (the actor themselves or
 * another admin), with an audit row naming the assignee: `invalid` when `findOperator` (the
 * console's) finds no admin operator of that address, `closed` for a closed request, `unchanged`
 * when already theirs.
 * @throws Error when `actor` is not an admin.
 */
export async function assignPrivacyRequest(
  db: Db,
  actor: Actor,
  reference: string,
  assignee: string,
  findOperator: FindOperator,
): Promise<PrivacyChange> {
  requireAdmin(actor);
  const ref = normalise(reference);
  return db.transaction(async (tx) => {
    const operator = await findOperator(tx, assignee);
    if (operator?.role !== 'admin') return 'invalid';
    const [row] = await tx
      .select({ status: privacyRequests.status, assignedTo: privacyRequests.assignedTo })
      .from(privacyRequests)
      .where(eq(privacyRequests.reference, ref))
      .for('update');
    if (!row) return 'not-found';
    if (row.status !== 'open') return 'closed';
    if (row.assignedTo === operator.email) return 'unchanged';
    await tx
      .update(privacyRequests)
      .set({ assignedTo: operator.email })
      .where(eq(privacyRequests.reference, ref));
    await appendAudit(tx, actor, 'privacy-assign', ref, operator.email);
    return 'assigned';
  });
}

/**
 * Answers the open request `reference` with `text`, in one transaction: queues the `privacy.reply`
 * e-mail to the person's address, closes the request as a tombstone (status `closed`, `closed_at`
 * now, outcome `answered`, address and details cleared; assigned to `actor` when it was nobody's)
 * and writes the audit row (reference and kind, never the address). Only one reply per request:
 * a second one, or a concurrent one, finds it closed. `invalid` when the text is empty, longer
 * than PRIVACY_REPLY_MAX or holds control characters.
 * @throws Error when `actor` is not an admin.
 */
export async function replyToPrivacyRequest(
  db: Db,
  actor: Actor,
  reference: string,
  text: string,
  now: Date = new Date(),
): Promise<PrivacyChange> {
  requireAdmin(actor);
  const reply = replySchema.safeParse(text);
  if (!reply.success) return 'invalid';
  const ref = normalise(reference);
  return db.transaction(async (tx) => {
    const [open] = await tx
      .select({ id: privacyRequests.id, kind: privacyRequests.kind, email: privacyRequests.email })
      .from(privacyRequests)
      .where(and(eq(privacyRequests.reference, ref), eq(privacyRequests.status, 'open')))
      .for('update');
    if (!open?.email) return whyNotOpen(tx, ref);
    await tx
      .update(privacyRequests)
      .set({
        status: 'closed',
        closedAt: now,
        outcome: 'answered',
        email: null,
        details: null,
        assignedTo: sql`coalesce(${privacyRequests.assignedTo}, ${actor.email})`,
      })
      .where(eq(privacyRequests.id, open.id));
    await dropAdditionsOf(tx, [open.id]);
    await enqueue(
      tx,
      privacyReplyJob,
      { reference: ref, to: open.email, text: reply.data },
      { dedupeKey: `privacy.reply:${open.id}`, owner: open.id },
    );
    await appendAudit(tx, actor, 'privacy-reply', ref, open.kind);
    return 'replied';
  });
}

/**
 * Reads the due dates of the open requests and summarises them at `now` against `alertDays`
 * (PRIVACY_DUE_ALERT_DAYS): closed requests never count.
 * @throws when the database does not answer.
 */
export async function readPrivacySummary(
  db: Db,
  alertDays: number,
  now: Date = new Date(),
): Promise<PrivacySummary> {
  const rows = await db
    .select({ dueAt: privacyRequests.dueAt })
    .from(privacyRequests)
    .where(eq(privacyRequests.status, 'open'));
  return summarizePrivacy(
    rows.map((row) => row.dueAt),
    now,
    alertDays,
  );
}
