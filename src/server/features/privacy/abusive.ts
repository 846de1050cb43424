import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { privacyConsoleText } from '@/content/console';
import { appendAudit, type Actor } from '../../platform/audit';
import type { Db } from '../../platform/db';
import { enqueue } from '../../delivery/queue/enqueue';
import { dropAdditionsOf } from './grievance-additions';
import { normalise, requireAdmin } from './handling';
import { privacyReplyJob } from './reply';
import { privacyRequests } from './schema';

/** The outcome of a request an admin closed as abusive (no personal data). */
export const ABUSIVE_OUTCOME = 'closed as abusive';

/**
 * Closes the open requests `references` an admin judged abusive (a flood of grievances, say), in
 * one transaction: each becomes a tombstone (outcome ABUSIVE_OUTCOME, address and details cleared,
 * assigned to `actor` when it was nobody's) with one audit row per request, and its requester (who
 * proved the address when confirming it) is told by a `privacy.reply` e-mail that it was closed
 * and how to have it dealt with after all; a pending job of it finds it closed and sends nothing.
 * Unknown or closed references are left as they are.
 * @returns the references closed.
 * @throws Error when `actor` is not an admin.
 */
export async function closeAbusiveRequests(
  db: Db,
  actor: Actor,
  references: readonly string[],
  now: Date = new Date(),
): Promise<string[]> {
  requireAdmin(actor);
  const refs = [...new Set(references.map(normalise))];
  if (refs.length === 0) return [];
  return db.transaction(async (tx) => {
    const open = await tx
      .select({
        id: privacyRequests.id,
        reference: privacyRequests.reference,
        kind: privacyRequests.kind,
        email: privacyRequests.email,
      })
      .from(privacyRequests)
      .where(and(inArray(privacyRequests.reference, refs), eq(privacyRequests.status, 'open')))
      .for('update');
    if (open.length === 0) return [];
    await tx
      .update(privacyRequests)
      .set({
        status: 'closed',
        closedAt: now,
        outcome: ABUSIVE_OUTCOME,
        email: null,
        details: null,
        assignedTo: sql`coalesce(${privacyRequests.assignedTo}, ${actor.email})`,
      })
      .where(
        inArray(
          privacyRequests.id,
          open.map((row) => row.id),
        ),
      );
    await dropAdditionsOf(
      tx,
      open.map((row) => row.id),
    );
    for (const row of open) {
      await appendAudit(tx, actor, 'privacy-close', row.reference, `${row.kind}: abusive`);
      if (row.email)
        await enqueue(
          tx,
          privacyReplyJob,
          { reference: row.reference, to: row.email, text: privacyConsoleText.abusiveNotice },
          { dedupeKey: `privacy.reply:${row.id}`, owner: row.id },
        );
    }
    return open.map((row) => row.reference).sort();
  });
}
