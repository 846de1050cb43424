import 'server-only';
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Why an address is suppressed: its owner asked for erasure or withdrew consent. */
export type SuppressionReason = 'erase' | 'withdraw';

/**
 * Addresses that asked to be erased or to stop being contacted, as keyed hashes only: the site
 * sends them nothing, whoever types them, until their owner asks to hear from us again through
 * `/privacy-requests` and confirms by the link (src/server/platform/people/suppression.ts).
 */
export const suppressions = pgTable(
  'suppressions',
  {
    /** The keyed hash of the spelling that asked (AddressKeys `exact`): what lifts it. */
    emailHash: text('email_hash').primaryKey(),
    /**
     * The keyed hash of its canonical form (AddressKeys `mailbox`): what blocks every spelling of
     * the same inbox. Null for suppressions made before canonical forms were kept: those block by
     * `email_hash` compared with the mailbox key (isSuppressed).
     */
    mailboxHash: text('mailbox_hash'),
    /** The request kind that put it there: `erase` or `withdraw`. */
    reason: text('reason').$type<SuppressionReason>().notNull(),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    /** When the last "hear from us again" link was queued for it (at most one a week). */
    resumeLinkAt: timestamp('resume_link_at', { withTimezone: true }),
  },
  (table) => [index('suppressions_mailbox_hash').on(table.mailboxHash)],
);

/** Which budget an unproven mail counts against: grievance links apart from the rest. */
export type UnprovenMailBucket = 'proof' | 'grievance';

/**
 * One row per e-mail sent (or about to be) to an address on a request its owner has not proved
 * yet: confirmation requests, privacy links, "a demo already exists" notices. Keyed hashes only;
 * `at` is when it leaves (later than its request when delayed); rows older than a day are purged. What the per-recipient and site-wide limits count
 * (src/server/platform/people/mail-budget.ts).
 */
export const unprovenMails = pgTable(
  'unproven_mails',
  {
    /** The keyed hash of the recipient's inbox (AddressKeys `mailbox`). */
    emailHash: text('email_hash').notNull(),
    /** The keyed hash of the requesting client's group (hashClientGroup); null: an operator. */
    clientGroup: text('client_group'),
    /** `grievance` links have a budget of their own; `proof` is every other mail. */
    bucket: text('bucket').$type<UnprovenMailBucket>().notNull().default('proof'),
    /** The kind of mail, e.g. `demo.confirm` (for the log and metrics). */
    kind: text('kind').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('unproven_mails_hash_at').on(table.emailHash, table.at),
    index('unproven_mails_at').on(table.at),
  ],
);
