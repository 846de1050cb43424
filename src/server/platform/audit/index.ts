import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, ilike, isNull, lt, or, type SQL } from 'drizzle-orm';
import { containsPattern } from '@/lib/like-pattern';
import type { Db } from '../db';
import { auditLog } from './schema';

/** What the audit log records, one name per kind of act. */
export const auditActions = [
  'sign-in',
  'sign-out',
  'view',
  'export',
  'release',
  'retry',
  'acknowledge',
  'reschedule',
  'cancel',
  'operator-add',
  'operator-role',
  'operator-remove',
  'privacy-view',
  'privacy-assign',
  'privacy-reply',
  'privacy-close',
  'privacy-request',
  'privacy-outcome',
  'read',
  'refused',
  'restore',
  'job-release',
  'job-drop',
] as const;

export type AuditAction = (typeof auditActions)[number];

/**
 * Who acted: an operator by e-mail, or `cli` for the `leads` command line (a visitor's privacy
 * request is recorded as actor `visitor`, see src/server/privacy).
 */
export type Actor = { email: string; role: 'sales' | 'admin' };

/** The command line's actor: it runs on the server, so it may do what an admin may. */
export const CLI_ACTOR: Actor = { email: 'cli', role: 'admin' };

/** One row of the audit log. */
export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * Appends one row to the audit log (there is no update or delete besides the retention purge).
 * Run it in the transaction of the act it records, so one never exists without the other.
 */
export async function appendAudit(
  db: Db,
  actor: Actor | string,
  action: AuditAction,
  subject?: string | null,
  detail?: string | null,
): Promise<void> {
  await db.insert(auditLog).values({
    id: randomUUID(),
    actor: typeof actor === 'string' ? actor : actor.email,
    action,
    subject: subject ?? null,
    detail: detail ?? null,
  });
}

/** Reads of the same page by the same operator within this long are folded into one row. */
export const READ_FOLD_MS = 60_000;

/**
 * Records that `actor` read personal data: `what` (the page or list, e.g. `inbox`, `spam`),
 * `detail` (its filter or search). Folded: nothing is added when the same operator's row for
 * the same `what` and `detail` exists from the last READ_FOLD_MS before `now` (one row per
 * operator per page per minute). Run it in the transaction of the read it records.
 */
export async function appendRead(
  db: Db,
  actor: Actor,
  what: string,
  detail: string | null = null,
  now = new Date(),
): Promise<void> {
  const [recent] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actor, actor.email),
        eq(auditLog.action, 'read'),
        eq(auditLog.subject, what),
        detail === null ? isNull(auditLog.detail) : eq(auditLog.detail, detail),
        gte(auditLog.at, new Date(now.getTime() - READ_FOLD_MS)),
      ),
    )
    .limit(1);
  if (recent) return;
  await db.insert(auditLog).values({
    id: randomUUID(),
    actor: actor.email,
    action: 'read',
    subject: what,
    detail,
    at: now,
  });
}

/**
 * Runs `read` (a read of personal data by `actor`) and records it with appendRead (`what`,
 * `detail`, folded per minute) in one transaction; returns what `read` returned.
 */
export function auditedRead<T>(
  db: Db,
  actor: Actor,
  what: string,
  detail: string | null,
  read: (tx: Db) => Promise<T>,
  now = new Date(),
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await read(tx);
    await appendRead(tx, actor, what, detail, now);
    return result;
  });
}

/** Which audit rows `listAudit` returns. */
export type AuditFilter = {
  action?: AuditAction;
  /** Part of the actor's e-mail or of the subject (case-insensitive). */
  query?: string;
  from?: Date;
  /** Exclusive upper bound. */
  to?: Date;
  limit?: number;
  offset?: number;
};

/** Audit rows, newest first, with the total matching the filter (for paging). */
export async function listAudit(
  db: Db,
  { action, query, from, to, limit = 50, offset = 0 }: AuditFilter = {},
): Promise<{ rows: AuditEntry[]; total: number }> {
  const conditions: (SQL | undefined)[] = [
    action ? eq(auditLog.action, action) : undefined,
    from ? gte(auditLog.at, from) : undefined,
    to ? lt(auditLog.at, to) : undefined,
    query
      ? or(
          ilike(auditLog.actor, containsPattern(query)),
          ilike(auditLog.subject, containsPattern(query)),
        )
      : undefined,
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
