import 'server-only';
import { date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Page views per day (in the site's time zone, `SITE_TIME_ZONE`), page and source: aggregates
 * only, no visitor's identifier. `''` stands for "none" in a dimension (so the key is unique);
 * values past the day's cap of distinct ones are folded into `other`.
 */
export const visitCounts = pgTable(
  'visit_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** A known route of the site (the sitemap's), e.g. `/contact-us`. */
    path: text('path').notNull(),
    /** Host of the other site the visit came from, `''` when direct or unknown. */
    referrerHost: text('referrer_host').notNull().default(''),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    /** `mobile`, `tablet` or `desktop` (deviceClassOf). */
    device: text('device').notNull(),
    views: integer('views').notNull().default(0),
    /** Visitors whose first counted view of the day was this one (so a day's sum is its uniques). */
    visitors: integer('visitors').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'visit_counts_pk',
      columns: [
        table.day,
        table.path,
        table.referrerHost,
        table.utmSource,
        table.utmMedium,
        table.utmCampaign,
        table.device,
      ],
    }),
  ],
);

/**
 * The funnel's later steps per day and source, counted when each happens (an enquiry stored, a
 * demo booked, a demo's start passed), so that purging or erasing enquiries never rewrites them.
 */
export const funnelCounts = pgTable(
  'funnel_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** `enquiry`, `demo_booked` or `demo_held` (FunnelStep). */
    step: text('step').notNull(),
    referrerHost: text('referrer_host').notNull().default(''),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    count: integer('count').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'funnel_counts_pk',
      columns: [
        table.day,
        table.step,
        table.referrerHost,
        table.utmSource,
        table.utmMedium,
        table.utmCampaign,
      ],
    }),
  ],
);

/**
 * A booked demo whose start has not passed yet, with its source: counted as `demo_held` once the
 * start passes (and removed if it is cancelled first). Holds the booking's id and start, no
 * personal data; removed when counted or cancelled.
 */
export const pendingDemos = pgTable('sources_pending_demos', {
  bookingId: text('booking_id').primaryKey(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  referrerHost: text('referrer_host').notNull().default(''),
  utmSource: text('utm_source').notNull().default(''),
  utmMedium: text('utm_medium').notNull().default(''),
  utmCampaign: text('utm_campaign').notNull().default(''),
});

/** The random salt of one day, shared by every instance; deleted with the day. */
export const visitSalts = pgTable('visit_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/**
 * The keyed hashes of the day's visitors (HMAC of the day's salt over address, user agent and
 * host): only to count each once a day; deleted with the day's salt.
 */
export const visitHashes = pgTable(
  'visit_hashes',
  {
    day: date('day', { mode: 'string' }).notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [primaryKey({ name: 'visit_hashes_pk', columns: [table.day, table.hash] })],
);
