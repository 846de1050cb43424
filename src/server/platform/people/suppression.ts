import 'server-only';
import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
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

/** A suppressed address is sent at most one "hear from us again" link per this long (ms). */
export const RESUME_LINK_INTERVAL_MS = 7 * 24 * 3_600_000;

/**
 * Claims the one "hear from us again" link a suppressed spelling may be sent per
 * RESUME_LINK_INTERVAL_MS, in the caller's transaction. `emailHash` is the spelling's exact key
 * (AddressKeys `exact`): only the spelling that asked can lift, so only its own row is claimed, and
 * a look-alike spelling of the same inbox neither gets a link nor spends the week's. True (and
 * `now` recorded) when none was claimed in the interval before `now`, false otherwise or when this
 * very spelling is not suppressed.
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
