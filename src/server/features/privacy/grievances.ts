import 'server-only';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { addToGrievance } from './grievance-additions';
import { privacyRequests } from './schema';

/**
 * One open grievance per address: a later grievance from the same address joins the open one (its
 * text stored as an addition of its own, with how it came: grievance-additions.ts) instead of
 * opening another request and sending another e-mail, so a stranger cannot pile up requests on an
 * address nor mail it again and again.
 */

/** How an addition reached the open grievance: the form (unproved) or a confirmed link. */
export type JoinedBy = 'form' | 'link';

/**
 * Takes the transaction-scoped lock on grievances of the address of keyed hash `emailHash`, so two
 * confirmations at once cannot open two requests for it (held until the caller's transaction ends).
 */
export async function lockGrievancesOf(tx: Db, emailHash: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${emailHash}, 13))`);
}

/**
 * Adds `text` to the open grievance of the address of keyed hash `emailHash` (but `except`), in
 * the caller's transaction, as an addition of its own saying when and how it came (`by`: the
 * form, unproved, or a confirmed link); past the additions' caps it is dropped (addToGrievance)
 * but the grievance still counts as joined.
 * @returns the open grievance's reference, or undefined when the address has none.
 */
export async function joinOpenGrievance(
  tx: Db,
  joining: {
    emailHash: string;
    text: string;
    by: JoinedBy;
    now: Date;
    /** A request not to join (the one just stored for the link being confirmed). */
    except?: string;
  },
): Promise<string | undefined> {
  const [open] = await tx
    .select({ id: privacyRequests.id, reference: privacyRequests.reference })
    .from(privacyRequests)
    .where(
      and(
        eq(privacyRequests.emailHash, joining.emailHash),
        eq(privacyRequests.kind, 'grievance'),
        eq(privacyRequests.status, 'open'),
        joining.except ? ne(privacyRequests.id, joining.except) : undefined,
      ),
    )
    .orderBy(asc(privacyRequests.verifiedAt))
    .limit(1)
    .for('update');
  if (!open) return undefined;
  await addToGrievance(tx, open, { by: joining.by, text: joining.text, at: joining.now });
  return open.reference;
}
