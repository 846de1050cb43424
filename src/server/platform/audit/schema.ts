import 'server-only';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What operators did, one row per act, appended and never updated: `actor` is the operator's
 * e-mail or `cli`; `subject` what it was done to (an enquiry's reference, an operator's e-mail).
 * Kept as long as enquiries (purged with LEADS_RETENTION_DAYS).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subject: text('subject'),
    detail: text('detail'),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at),
    index('audit_log_action_at_idx').on(table.action, table.at),
  ],
);
