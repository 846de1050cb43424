import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { operators, type OperatorRole } from './schema';
import { appendAudit, type Actor } from '../../platform/audit';

/** An operator as the console lists them. */
export type Operator = { id: string; email: string; role: OperatorRole; createdAt: Date };

/** The roles, least power first. */
export const operatorRoles: readonly OperatorRole[] = ['sales', 'admin'];

const emailSchema = z.email();

/** `email` trimmed and in lower case, or null when it is not an e-mail address. */
export function normaliseEmail(email: unknown): string | null {
  const value = String(email ?? '')
    .trim()
    .toLowerCase();
  return emailSchema.safeParse(value).success ? value : null;
}

/** Every operator, by e-mail. */
export async function listOperators(db: Db): Promise<Operator[]> {
  return db
    .select({
      id: operators.id,
      email: operators.email,
      role: operators.role,
      createdAt: operators.createdAt,
    })
    .from(operators)
    .orderBy(asc(operators.email));
}

/** The operator with this e-mail (any case), or undefined. */
export async function findOperator(db: Db, email: string): Promise<Operator | undefined> {
  const [row] = await db
    .select({
      id: operators.id,
      email: operators.email,
      role: operators.role,
      createdAt: operators.createdAt,
    })
    .from(operators)
    .where(eq(operators.email, email.trim().toLowerCase()));
  return row;
}

/** What an operator change did. */
export type OperatorChange =
  'added' | 'updated' | 'unchanged' | 'removed' | 'not-found' | 'invalid' | 'last-admin';

/**
 * Adds `email` as an operator with `role`, or sets the role of an existing one, and writes the
 * audit row, in one transaction.
 */
export async function addOperator(
  db: Db,
  actor: Actor,
  email: string,
  role: OperatorRole,
): Promise<OperatorChange> {
  const address = normaliseEmail(email);
  if (!address || !operatorRoles.includes(role)) return 'invalid';
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const existing = await findOperator(tx, address);
    if (existing) return setRoleIn(tx, actor, existing, role);
    await tx.insert(operators).values({
      id: randomUUID(),
      email: address,
      name: address,
      emailVerified: true,
      role,
    });
    await appendAudit(tx, actor, 'operator-add', address, role);
    return 'added';
  });
}

/**
 * Changes the role of the operator `email`. The last admin cannot be lowered to sales (nobody
 * could manage operators any more).
 */
export async function changeOperatorRole(
  db: Db,
  actor: Actor,
  email: string,
  role: OperatorRole,
): Promise<OperatorChange> {
  if (!operatorRoles.includes(role)) return 'invalid';
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const existing = await findOperator(tx, email);
    return existing ? setRoleIn(tx, actor, existing, role) : 'not-found';
  });
}

async function setRoleIn(
  tx: Db,
  actor: Actor,
  operator: Operator,
  role: OperatorRole,
): Promise<OperatorChange> {
  if (operator.role === role) return 'unchanged';
  if (operator.role === 'admin' && (await adminCount(tx)) <= 1) return 'last-admin';
  await tx
    .update(operators)
    .set({ role, updatedAt: new Date() })
    .where(eq(operators.id, operator.id));
  await appendAudit(tx, actor, 'operator-role', operator.email, role);
  return 'updated';
}

/**
 * Serialises the changes of operators' roles and removals until `tx` ends (a transaction-scoped
 * advisory lock): two admins demoting or removing each other at once take turns, so the second
 * counts the admins the first left and the last admin stays.
 */
async function lockOperators(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('console.operators'))`);
}

async function adminCount(tx: Db): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(operators)
    .where(eq(operators.role, 'admin'));
  return row?.n ?? 0;
}

/**
 * Removes the operator `email`: their sessions go with them (the database cascades), so they
 * are signed out at their next request. The last admin cannot be removed.
 */
export async function removeOperator(db: Db, actor: Actor, email: string): Promise<OperatorChange> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const existing = await findOperator(tx, email);
    if (!existing) return 'not-found';
    if (existing.role === 'admin' && (await adminCount(tx)) <= 1) return 'last-admin';
    await tx.delete(operators).where(eq(operators.id, existing.id));
    await appendAudit(tx, actor, 'operator-remove', existing.email);
    return 'removed';
  });
}

/** The audit log's actor of the changes made from the `ADMIN_EMAILS` setting at start. */
export const ADMIN_EMAILS_ACTOR = 'ADMIN_EMAILS';

/**
 * Makes every address of `ADMIN_EMAILS` an admin operator (created when missing, raised when
 * sales); run at start. Each creation or promotion is written to the audit log (actor
 * `ADMIN_EMAILS`) in its own transaction. Idempotent, safe on several instances at once (only
 * the instance whose insert or update took effect writes the row).
 */
export async function ensureAdmins(db: Db, emails: readonly string[]): Promise<void> {
  for (const email of emails) {
    const address = normaliseEmail(email);
    if (!address) continue;
    await db.transaction(async (tx) => {
      const added = await tx
        .insert(operators)
        .values({
          id: randomUUID(),
          email: address,
          name: address,
          emailVerified: true,
          role: 'admin',
        })
        .onConflictDoNothing({ target: operators.email })
        .returning({ id: operators.id });
      if (added.length > 0) {
        await appendAudit(tx, ADMIN_EMAILS_ACTOR, 'operator-add', address, 'admin');
        return;
      }
      const raised = await tx
        .update(operators)
        .set({ role: 'admin', updatedAt: new Date() })
        .where(and(eq(operators.email, address), ne(operators.role, 'admin')))
        .returning({ id: operators.id });
      if (raised.length > 0)
        await appendAudit(tx, ADMIN_EMAILS_ACTOR, 'operator-role', address, 'admin');
    });
  }
}
