import 'server-only';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The database schema, one for PGlite and PostgreSQL. Migrations in `drizzle/` are generated from
 * it with drizzle-kit (see drizzle.config.ts); never edit the tables without generating one.
 */

/**
 * How an enquiry was judged: `lead` (e-mailed to the provider) or `spam` (it tripped a bot signal:
 * kept for review in quarantine, never sent unless an operator releases it).
 */
export type LeadVerdict = 'lead' | 'spam';

/** One enquiry from the contact form. Holds no IP address nor any hash of it. */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey(),
    /** Shown to the visitor and quoted in the e-mail, e.g. `NH-7K3P9QXD2M`. */
    reference: text('reference').notNull().unique(),
    /** Nonce of the form token: a second post of the same form returns the first enquiry. */
    submissionId: text('submission_id').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    organization: text('organization').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull().default(''),
    /**
     * Version of the privacy notice in force when the enquiry was made (`privacyNotice.version`
     * in src/content/privacy.ts); null for enquiries made before versions were recorded.
     */
    noticeVersion: text('notice_version'),
    /** `spam` rows are quarantined: stored for review, not delivered (see LeadVerdict). */
    verdict: text('verdict').$type<LeadVerdict>().notNull().default('lead'),
    /** Why a submission was quarantined (`honeypot`, `missing`, `tampered`, `too-fast`, …). */
    spamReason: text('spam_reason'),
    /** When an operator released a quarantined enquiry to the normal path (`leads release`). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** Whether the visitor came through "Schedule a Demo" (`/contact-us?subject=demo`). */
    demoRequested: boolean('demo_requested').notNull().default(false),
    /** Path on this site the visitor came from (same-origin Referer, no query), e.g. `/solutions`. */
    sourcePage: text('source_page'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('leads_created_at_idx').on(table.createdAt),
    index('leads_verdict_created_at_idx').on(table.verdict, table.createdAt),
    index('leads_email_lower_idx').on(sql`lower(${table.email})`),
  ],
);

/**
 * A demo booking is `booked` (live), `held` (live until `held_until`, waiting for the visitor to
 * confirm by e-mail, `DEMO_CONFIRM_EMAIL`), `cancelled`, or `expired` (a hold that lapsed and was
 * released for another booking). Cancelled and expired rows, and holds past `held_until`, free
 * their time.
 */
export type DemoBookingStatus = 'booked' | 'held' | 'cancelled' | 'expired';

/**
 * Demos booked from an enquiry's confirmation. The database guarantees that a host has
 * at most one live or held demo at a given start and an enquiry at most one (partial unique
 * indexes, on PGlite and PostgreSQL alike), so racing visitors on several instances cannot
 * double-book. Deleted with their enquiry.
 */
export const demoBookings = pgTable(
  'demo_bookings',
  {
    id: uuid('id').primaryKey(),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    /** The host's address from `DEMO_HOSTS`. */
    hostEmail: text('host_email').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status').$type<DemoBookingStatus>().notNull().default('booked'),
    /** iCalendar `SEQUENCE` of the invitation: 0 when booked, + 1 at each change. */
    sequence: integer('sequence').notNull().default(0),
    /**
     * Keyed hash of the client address that booked (hashClientAddress, never the address), for the
     * cap of upcoming demos per client; null when booked without one (the operator, tests).
     */
    clientHash: text('client_hash'),
    /** When a `held` booking lapses unless confirmed; null for every other status. */
    heldUntil: timestamp('held_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Holds are covered too, lapsed or not (an index cannot read the clock): a booking first
    // marks the lapsed holds in its way `expired`, under its locks (demos/holds.ts).
    uniqueIndex('demo_bookings_host_start_live_idx')
      .on(table.hostEmail, table.startsAt)
      .where(sql`${table.status} in ('booked', 'held')`),
    uniqueIndex('demo_bookings_lead_live_idx')
      .on(table.leadId)
      .where(sql`${table.status} in ('booked', 'held')`),
    index('demo_bookings_starts_at_idx').on(table.startsAt),
    index('demo_bookings_client_live_idx')
      .on(table.clientHash)
      .where(sql`${table.status} in ('booked', 'held')`),
  ],
);

/**
 * State of a queued job: `pending` (waiting for its time), `sending` (claimed by a worker, see
 * `claimToken`), `sent` (done), `failed` (given up; stays visible until retried or acknowledged).
 */
export type JobStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * The job queue (src/server/queue): one row per job, written in the same transaction as the rows
 * it announces (the transactional outbox). The queue knows no feature: a job has a `kind`, a
 * payload its kind's zod schema validates, a deduplication key, a not-before time and an `owner`
 * (an opaque id, e.g. the enquiry's, so a feature can list and erase its jobs).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    /** What the job does, e.g. `enquiry.email`; names the handler that runs it. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** At most one job per key: enqueueing the same key again adds nothing. */
    dedupeKey: text('dedupe_key').notNull(),
    /** The record the job belongs to (opaque to the queue), e.g. an enquiry's id. */
    owner: text('owner'),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the job first became due (its not-before time): lateness is measured from here. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a pending job may next be tried (due_at, later after a failed attempt). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** The claim of the worker sending it: every write after the claim must present it. */
    claimToken: uuid('claim_token'),
    /** When a `sending` job's claim expires unless renewed (its worker died). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was sent, or given up on. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When an operator acknowledged a failed job: it no longer rings the alarm. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('jobs_dedupe_key_idx').on(table.dedupeKey),
    index('jobs_status_run_at_idx').on(table.status, table.runAt),
    index('jobs_owner_idx').on(table.owner),
  ],
);

/** Fixed-window submission counters per client hash, shared by every instance. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/** Generated secrets (form-token and hashing key) when `FORM_SECRET` is not set. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** What an operator of the console may do: `sales` works enquiries, `admin` also operators and audit. */
export type OperatorRole = 'sales' | 'admin';

/**
 * People who may sign in to the console (better-auth's `user` model). There is no sign-up: rows
 * come from `ADMIN_EMAILS` at start and from admins (console or `leads operators add`).
 */
export const operators = pgTable('operators', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  role: text('role').$type<OperatorRole>().notNull().default('sales'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Console sessions (better-auth's `session` model); deleted with their operator (revocation). */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
  },
  (table) => [index('operator_sessions_user_id_idx').on(table.userId)],
);

/** better-auth's `account` model (unused by magic links, required by the library's core). */
export const operatorAccounts = pgTable(
  'operator_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('operator_accounts_user_id_idx').on(table.userId)],
);

/** Pending sign-in links (better-auth's `verification` model; the token is stored hashed). */
export const signInTokens = pgTable(
  'sign_in_tokens',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sign_in_tokens_identifier_idx').on(table.identifier)],
);

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

/**
 * The rights a person may exercise under the DPDP Act, 2023: a copy of their data (s.11), its
 * correction or erasure (s.12), withdrawal of consent (s.6(4)), a nominee (s.14), a grievance (s.13).
 */
export type PrivacyRequestKind =
  'copy' | 'correct' | 'erase' | 'withdraw' | 'nominate' | 'grievance';

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

/**
 * Addresses that asked to be erased or to stop being contacted, as keyed hashes only: nothing is
 * e-mailed to them again until the person makes a new enquiry, which removes the row.
 */
export const suppressions = pgTable('suppressions', {
  emailHash: text('email_hash').primaryKey(),
  /** The request kind that put it there: `erase` or `withdraw`. */
  reason: text('reason').$type<PrivacyRequestKind>().notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
});

export const schema = {
  leads,
  demoBookings,
  jobs,
  rateLimits,
  appSecrets,
  operators,
  operatorSessions,
  operatorAccounts,
  signInTokens,
  auditLog,
  privacyRequests,
  suppressions,
};
