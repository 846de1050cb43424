import 'server-only';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { DETAILS_MAX } from '@/lib/privacy-request-schema';
import type { Db } from '../../platform/db';
import { log } from '../../platform/log';
import { privacyRequests } from './schema';

/**
 * One open grievance per address: a later grievance from the same address joins the open one (its
 * text appended to that request's record) instead of opening another request and sending another
 * e-mail, so a stranger cannot pile up requests on an address nor mail it again and again.
 */

/** The longest a joined grievance's text may grow (characters); later additions are dropped. */
export const GRIEVANCE_TEXT_MAX = 10 * DETAILS_MAX;

/** How an addition reached the open grievance, written above its text for the admin. */
export type JoinedBy = 'form' | 'link';

const joinedNote: Record<JoinedBy, string> = {
  form: 'sent through the form; the address was not proved again',
  link: 'confirmed by a link e-mailed to the address',
};

/**
 * Takes the transaction-scoped lock on grievances of the address of keyed hash `emailHash`, so two
 * confirmations at once cannot open two requests for it (held until the caller's transaction ends).
 */
export async function lockGrievancesOf(tx: Db, emailHash: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${emailHash}, 13))`);
}

/**
 * Appends `text` to the open grievance of the address of keyed hash `emailHash`, in the caller's
 * transaction (but `except`), under a line saying when and how it came (`by`: the form, unproved, or a confirmed
 * link). Past GRIEVANCE_TEXT_MAX the addition is dropped (logged `privacy.grievance_full`) but the
 * grievance still counts as joined.
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
    .select({
      id: privacyRequests.id,
      reference: privacyRequests.reference,
      details: privacyRequests.details,
    })
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
  const details = `${open.details ?? ''}\n\n[Added ${joining.now.toISOString()}, ${joinedNote[joining.by]}]\n${joining.text}`;
  if (details.length > GRIEVANCE_TEXT_MAX)
    log.warn({ event: 'privacy.grievance_full', reference: open.reference, by: joining.by });
  else await tx.update(privacyRequests).set({ details }).where(eq(privacyRequests.id, open.id));
  return open.reference;
}
