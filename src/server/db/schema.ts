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

/** One enquiry from the contact form. Holds no IP address, only a salted hash of it. */
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
    /** HMAC-SHA-256 of the client address with the site secret (never the address itself). */
    clientHash: text('client_hash').notNull(),
    /** `spam` rows are quarantined: stored for review, not delivered (see LeadVerdict). */
    verdict: text('verdict').$type<LeadVerdict>().notNull().default('lead'),
    /** Why a submission was quarantined (`honeypot`, `missing`, `tampered`, `too-fast`, …). */
    spamReason: text('spam_reason'),
    /** When an operator released a quarantined enquiry to the normal path (`leads release`). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** Whether the visitor came through "Schedule a Demo" (`/contact-us?subject=demo`), issue 12. */
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

/** A demo booking is live (`booked`) or `cancelled` (issue 16); cancelled rows free their time. */
export type DemoBookingStatus = 'booked' | 'cancelled';

/**
 * Demos booked from an enquiry's confirmation (issue 16). The database guarantees that a host has
 * at most one live demo at a given start and an enquiry at most one live demo (partial unique
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('demo_bookings_host_start_live_idx')
      .on(table.hostEmail, table.startsAt)
      .where(sql`${table.status} = 'booked'`),
    uniqueIndex('demo_bookings_lead_live_idx')
      .on(table.leadId)
      .where(sql`${table.status} = 'booked'`),
    index('demo_bookings_starts_at_idx').on(table.startsAt),
    index('demo_bookings_client_live_idx')
      .on(table.clientHash)
      .where(sql`${table.status} = 'booked'`),
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

export const schema = { leads, demoBookings, jobs, rateLimits, appSecrets };
