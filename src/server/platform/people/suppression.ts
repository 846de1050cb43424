import 'server-only';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../db';
import { suppressions } from './schema';

/**
 * The suppression list: keyed hashes (addressHash) of the addresses that asked to be erased or to
 * stop being contacted (DPDP Act s.6(4), s.12). Nothing is e-mailed to them, whoever types the
 * address (the e-mail gate, src/server/delivery/email/suppression-gate.ts), until their owner asks
 * to hear from us again at /privacy-requests and confirms by the link: only that lifts it.
 */

/** Whether the address of keyed hash `emailHash` is suppressed. */
export async function isSuppressed(db: Db, emailHash: string): Promise<boolean> {
  const [row] = await db
    .select({ emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(eq(suppressions.emailHash, emailHash));
  return row !== undefined;
}

/**
 * Suppresses the address of keyed hash `emailHash` for `reason` (`erase` or `withdraw`), in the
 * caller's transaction; a second suppression keeps the first row.
 */
export async function suppress(
  db: Db,
  emailHash: string,
  reason: 'erase' | 'withdraw',
  now: Date,
): Promise<void> {
  await db.insert(suppressions).values({ emailHash, reason, since: now }).onConflictDoNothing();
}

/**
 * Lifts the suppression of the address of keyed hash `emailHash`, in the caller's transaction:
 * only for its owner's confirmed "hear from us again" request (the address proved by the link;
 * an enquiry never lifts it, since anyone can type anyone's address).
 * @returns whether it was suppressed
 */
export async function liftSuppression(db: Db, emailHash: string): Promise<boolean> {
  const lifted = await db
    .delete(suppressions)
    .where(eq(suppressions.emailHash, emailHash))
    .returning({ emailHash: suppressions.emailHash });
  return lifted.length > 0;
}

/** A suppressed address is sent at most one "hear from us again" link per this long (ms). */
export const RESUME_LINK_INTERVAL_MS = 7 * 24 * 3_600_000;

/**
 * Claims the one "hear from us again" link a suppressed address may be sent per
 * RESUME_LINK_INTERVAL_MS, in the caller's transaction: true (and `now` recorded) when none was
 * claimed in the interval before `now`, false otherwise or when the address is not suppressed.
 * One conditional update, so concurrent requests on any instance claim it once.
 */
export async function claimResumeLink(db: Db, emailHash: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(suppressions)
    .set({ resumeLinkAt: now })
    .where(
      and(
        eq(suppressions.emailHash, emailHash),
        or(
          isNull(suppressions.resumeLinkAt),
          lte(suppressions.resumeLinkAt, new Date(now.getTime() - RESUME_LINK_INTERVAL_MS)),
        ),
      ),
    )
    .returning({ emailHash: suppressions.emailHash });
  return claimed.length > 0;
}
