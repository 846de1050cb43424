import 'server-only';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Why an address is suppressed: its owner asked for erasure or withdrew consent. */
export type SuppressionReason = 'erase' | 'withdraw';

/**
 * Addresses that asked to be erased or to stop being contacted, as keyed hashes only: nothing is
 * e-mailed to them again until the person makes a new enquiry, which removes the row.
 */
export const suppressions = pgTable('suppressions', {
  emailHash: text('email_hash').primaryKey(),
  /** The request kind that put it there: `erase` or `withdraw`. */
  reason: text('reason').$type<SuppressionReason>().notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
});
