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
  ],
);

/** Delivery state of a notification job (see src/server/outbox/worker.ts). */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * Where a job delivers: the provider's mailbox (`email`, target ''), an HTTP endpoint
 * (`webhook`, target = the endpoint URL), or a demo's e-mail to the visitor or host (`demo`:
 * invitation or reminder, target = e-mail, booking and sequence, see src/server/demo/mail-jobs.ts;
 * issue 16).
 */
export type OutboxChannel = 'email' | 'webhook' | 'demo';

/**
 * Transactional outbox: the deliveries of a lead (one e-mail, one job per webhook endpoint),
 * written in the lead's transaction. One job per lead, channel and target.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey(),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<OutboxChannel>().notNull().default('email'),
    target: text('target').notNull().default(''),
    /** The demo booking a `demo` job announces (issue 16). */
    bookingId: uuid('booking_id').references(() => demoBookings.id, { onDelete: 'cascade' }),
    /**
     * What the job delivers, frozen when it was queued (issue 16): a `demo.*` webhook event, or the
     * demo a cancellation e-mail withdraws. Null: built from the lead (and booking) when sent.
     */
    payload: jsonb('payload'),
    status: text('status').$type<OutboxStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When a pending job may next be tried; for a `sending` job, when its claim expires. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('outbox_status_next_attempt_idx').on(table.status, table.nextAttemptAt),
    uniqueIndex('outbox_lead_channel_target_idx').on(table.leadId, table.channel, table.target),
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

export const schema = { leads, demoBookings, outbox, rateLimits, appSecrets };
