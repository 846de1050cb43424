import 'server-only';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { leads } from '../contact';

/**
 * A demo booking is `booked` (live), `held` (live until `held_until`, waiting for the visitor to
 * confirm by e-mail, `DEMO_CONFIRM_EMAIL`), `cancelled`, or `expired` (a hold that lapsed and was
 * released for another booking), or `requested`: the time a quarantined enquiry chose, kept
 * without holding it (it blocks nobody) until an operator releases the enquiry, which then holds or
 * books it if it is still free (announceReleased). Cancelled, expired and requested rows, and holds
 * past `held_until`, free their time.
 */
export type DemoBookingStatus = 'booked' | 'held' | 'cancelled' | 'expired' | 'requested';

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
    /**
     * Keyed hash of that client's group (hashClientGroup: IPv4 /24, IPv6 /48), for the limit of
     * unlapsed holds per group; null when booked without a client.
     */
    clientGroup: text('client_group'),
    /**
     * When a `held` booking lapses unless confirmed; for a `requested` one, when the page stops
     * showing it as held (as a lead's hold would lapse); null for every other status.
     */
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
    index('demo_bookings_group_held_idx')
      .on(table.clientGroup)
      .where(sql`${table.status} = 'held'`),
    index('demo_bookings_client_live_idx')
      .on(table.clientHash)
      .where(sql`${table.status} in ('booked', 'held')`),
  ],
);
