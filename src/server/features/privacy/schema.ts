import 'server-only';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The rights a person may exercise under the DPDP Act, 2023: a copy of their data (s.11), its
 * correction or erasure (s.12), withdrawal of consent (s.6(4)), a nominee (s.14), a grievance (s.13);
 * and `resume`, the way back after an erasure or a withdrawal (lifts the address's suppression).
 */
export type PrivacyRequestKind =
  'copy' | 'correct' | 'erase' | 'withdraw' | 'resume' | 'nominate' | 'grievance';

/** A privacy request is `open` until honoured or answered, then `closed` (a tombstone). */
export type PrivacyRequestStatus = 'open' | 'closed';

/**
 * Privacy requests whose address was proved by the signed link (unverified requests are not
 * stored: the link carries them). While open, the row keeps the address and the person's words so
 * an admin can answer; when closed they are cleared and the row remains as a tombstone (id, kind,
 * dates, keyed hash of the address, outcome) that proves the request was honoured.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: uuid('id').primaryKey(),
    /** Quoted to the person and in the console, e.g. `PR-7K3P9QXD2M`. */
    reference: text('reference').notNull().unique(),
    kind: text('kind').$type<PrivacyRequestKind>().notNull(),
    /** Nonce of the signed link: a link used twice honours one request. */
    linkNonce: text('link_nonce').notNull().unique(),
    /** Keyed hash of the lower-cased address (suppressionHash), kept in the tombstone. */
    emailHash: text('email_hash').notNull(),
    /** The proved address, in clear while the request is open; null once closed. */
    email: text('email'),
    /** What the person wrote (the correction, the nominee, the grievance); null once closed. */
    details: text('details'),
    status: text('status').$type<PrivacyRequestStatus>().notNull().default('open'),
    /** When the request form was posted. */
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** When the link was opened (the address proved). */
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
    /** The answer is due by then: 90 days from verification (DPDP Rules 2025, rule 14). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** The admin (operator e-mail) who answers it. */
    assignedTo: text('assigned_to'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** What was done, without personal data (e.g. `erased 2 enquiries, 1 demo`, `answered`). */
    outcome: text('outcome'),
  },
  (table) => [
    index('privacy_requests_status_due_idx').on(table.status, table.dueAt),
    index('privacy_requests_email_hash_idx').on(table.emailHash),
  ],
);

/** How an addition reached an open grievance: `unknown` for text appended before they were rows. */
export type GrievanceAdditionSource = 'form' | 'link' | 'unknown';

/**
 * What later grievances from the same address added to the open one, each a row of its own with
 * how it came (`by`), so nothing typed into the form can pass for another addition or forge its
 * provenance. Deleted when the grievance closes (its tombstone keeps no one's words).
 */
export const grievanceAdditions = pgTable(
  'grievance_additions',
  {
    id: uuid('id').primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => privacyRequests.id, { onDelete: 'cascade' }),
    by: text('by').$type<GrievanceAdditionSource>().notNull(),
    text: text('text').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('grievance_additions_request_at_idx').on(table.requestId, table.at)],
);
