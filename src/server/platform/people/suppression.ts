import 'server-only';
import { eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../db';
import type { AddressKeys } from './address-hash';
import { suppressions } from './schema';

/**
 * The suppression list: keyed hashes of the addresses that asked to be erased or to stop being
 * contacted (DPDP Act s.6(4), s.12), by spelling and by mailbox (AddressKeys). Nothing is e-mailed
 * to any spelling of their inbox, whoever types it (the e-mail gate,
 * src/server/delivery/email/suppression-gate.ts), until their owner asks to hear from us again at
 * /privacy-requests with the spelling that asked and confirms by the link: only that lifts it.
 */

/**
 * Whether the inbox of `keys` is suppressed (what blocks): a suppression of any spelling of it
 * (its `mailbox` key), or one stored before mailbox keys were kept whose spelling was the
 * canonical one (its `email_hash` is then the mailbox key) or is this very spelling.
 */
export async function isSuppressed(db: Db, keys: AddressKeys): Promise<boolean> {
  const [row] = await db
    .select({ emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(
      or(
        inArray(suppressions.emailHash, [keys.exact, keys.mailbox]),
        eq(suppressions.mailboxHash, keys.mailbox),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Whether this very spelling (keyed hash `exactHash`, AddressKeys `exact`) asked to be suppressed:
 * what "hear from us again" applies to (only the spelling that asked can lift it).
 */
export async function isSuppressedExactly(db: Db, exactHash: string): Promise<boolean> {
  const [row] = await db
    .select({ emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(eq(suppressions.emailHash, exactHash));
  return row !== undefined;
}

/**
 * Suppresses the address of `keys` for `reason` (`erase` or `withdraw`), in the caller's
 * transaction: it then blocks every spelling of its inbox. A second suppression of the same
 * spelling keeps the first row.
 */
export async function suppress(
  db: Db,
  keys: AddressKeys,
  reason: 'erase' | 'withdraw',
  now: Date,
): Promise<void> {
  await db
    .insert(suppressions)
    .values({ emailHash: keys.exact, mailboxHash: keys.mailbox, reason, since: now })
    .onConflictDoNothing();
}

/**
 * Lifts the suppression that the spelling of keyed hash `exactHash` (AddressKeys `exact`) asked
 * for, in the caller's transaction: only for its owner's confirmed "hear from us again" request
 * (the address proved by the link; an enquiry never lifts it, since anyone can type anyone's
 * address). Another spelling's suppression of the same inbox stays.
 * @returns whether it was suppressed
 */
export async function liftSuppression(db: Db, exactHash: string): Promise<boolean> {
  const lifted = await db
    .delete(suppressions)
    .where(eq(suppressions.emailHash, exactHash))
    .returning({ emailHash: suppressions.emailHash });
  return lifted.length > 0;
}
