import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { suppressions } from './schema';

/**
 * The suppression list: keyed hashes (addressHash) of the addresses that asked to be erased or to
 * stop being contacted (DPDP Act s.6(4), s.12). Nothing is e-mailed to them until they make a new
 * enquiry, which lifts it.
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
 * Lifts the suppression of the address of keyed hash `emailHash` (a new enquiry from it is new
 * consent, DPDP Act s.6); run in the enquiry's transaction. Nothing when it is not suppressed.
 */
export async function liftSuppression(db: Db, emailHash: string): Promise<void> {
  await db.delete(suppressions).where(eq(suppressions.emailHash, emailHash));
}
