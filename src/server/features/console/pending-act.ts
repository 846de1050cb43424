import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, gt, lte, or } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { FRESH_SIGN_IN_SECONDS, SIGN_IN_LINK_SECONDS } from './auth';
import { pendingActs } from './schema';

/**
 * A pending act is kept while its link may be used and then as long as a fresh sign-in lasts:
 * past that, the operator asks again.
 */
export const PENDING_ACT_SECONDS = SIGN_IN_LINK_SECONDS + FRESH_SIGN_IN_SECONDS;

/** Where a pending act is shown to confirm (the fresh sign-in's link returns there). */
export const PENDING_ACT_PATH = '/admin/pending';

/** The most a pending act's fields may weigh (characters of their JSON). */
const MAX_FIELDS_CHARS = 4096;

/** A pending act: what was asked (the console action's `act`) and the fields posted. */
export type PendingAct = { id: string; act: string; fields: Record<string, string[]> };

/** The page showing the pending act `id` (a random UUID). */
export function pendingActPath(id: string): string {
  return `${PENDING_ACT_PATH}/${id}`;
}

/** Whether `value` has the shape of a pending act's id (a UUID), so it may go into a path. */
export function isPendingActId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(value);
}

/** The field the pending act's page posts its id in (dropPendingAct), never kept in an act. */
export const PENDING_FIELD = 'pending';

/**
 * Keeps the act `act` the operator `operatorId` asked for with `fields` (Next.js's own `$ACTION`
 * fields and PENDING_FIELD dropped; refused with an error past MAX_FIELDS_CHARS), replacing their
 * earlier one and removing every expired one; returns its id. Valid PENDING_ACT_SECONDS from `now`.
 */
export async function savePendingAct(
  db: Db,
  operatorId: string,
  act: string,
  fields: Record<string, string[] | undefined>,
  now = new Date(),
): Promise<string> {
  const kept: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(fields))
    if (!name.startsWith('$ACTION') && name !== PENDING_FIELD && values) kept[name] = values;
  if (JSON.stringify(kept).length > MAX_FIELDS_CHARS) throw new Error('pending act too large');
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx
      .delete(pendingActs)
      .where(or(eq(pendingActs.operatorId, operatorId), lte(pendingActs.expiresAt, now)));
    await tx.insert(pendingActs).values({
      id,
      operatorId,
      act,
      fields: kept,
      expiresAt: new Date(now.getTime() + PENDING_ACT_SECONDS * 1000),
    });
  });
  return id;
}

/**
 * The pending act `id` of the operator `operatorId` while it lasts at `now`, else null: another
 * operator's act, an unknown id or an expired one are all the same null.
 */
export async function findPendingAct(
  db: Db,
  id: unknown,
  operatorId: string,
  now = new Date(),
): Promise<PendingAct | null> {
  if (!isPendingActId(id)) return null;
  const [row] = await db
    .select({ id: pendingActs.id, act: pendingActs.act, fields: pendingActs.fields })
    .from(pendingActs)
    .where(
      and(
        eq(pendingActs.id, id),
        eq(pendingActs.operatorId, operatorId),
        gt(pendingActs.expiresAt, now),
      ),
    );
  return row ?? null;
}

/**
 * Deletes the pending act `id` of the operator `operatorId` (it was confirmed and done), so its
 * page shows it no more; another operator's act, or an unknown id, is left alone.
 */
export async function dropPendingAct(db: Db, id: unknown, operatorId: string): Promise<void> {
  if (!isPendingActId(id)) return;
  await db
    .delete(pendingActs)
    .where(and(eq(pendingActs.id, id), eq(pendingActs.operatorId, operatorId)));
}

/** The first value of a pending act's field `name`, or empty. */
const field = (act: PendingAct, name: string) => act.fields[name]?.[0]?.trim() ?? '';

/**
 * A pending act in words (for its page and the sign-in mail), e.g. "add mallory@x.example as
 * admin". Unknown acts are named by their code.
 */
export function describePendingAct(act: PendingAct): string {
  const role = field(act, 'role') === 'admin' ? 'admin' : 'sales';
  switch (act.act) {
    case 'operator-add':
      return `add the operator ${field(act, 'email')} with the role ${role}`;
    case 'operator-role':
      return `change the role of ${field(act, 'email')} to ${role}`;
    case 'operator-remove':
      return `remove the operator ${field(act, 'email')}`;
    case 'erase':
      return `erase everything held for the person of enquiry ${field(act, 'reference')}`;
    case 'privacy-close-abusive':
      return `close ${act.fields.reference?.filter(Boolean).length ?? 0} privacy request(s) as abusive: ${(act.fields.reference ?? []).filter(Boolean).join(', ')}`;
    default:
      return act.act;
  }
}
