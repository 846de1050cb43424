import 'server-only';
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    /**
     * Whether the address was on the suppression list (its owner erased their data or withdrew
     * consent) when the enquiry came: stored and delivered to the sales team marked as such, and
     * the address is sent nothing (anyone can type anyone's address).
     */
    suppressed: boolean('suppressed').notNull().default(false),
    /**
     * The visit's source (src/lib/visit-source.ts), as the beacon kept it for the tab or, without
     * JavaScript, as the contact page itself saw it: the visit's first page, the other site that
     * sent it (host only) and its UTM tags. Personal data like the rest of the enquiry.
     */
    landingPage: text('landing_page'),
    referrerHost: text('referrer_host'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('leads_created_at_idx').on(table.createdAt),
    index('leads_verdict_created_at_idx').on(table.verdict, table.createdAt),
    index('leads_email_lower_idx').on(sql`lower(${table.email})`),
  ],
);

/** The visit-source columns of `leads`, by field (for selects that hand the source on). */
export const visitSourceColumns = {
  landingPage: leads.landingPage,
  referrerHost: leads.referrerHost,
  utmSource: leads.utmSource,
  utmMedium: leads.utmMedium,
  utmCampaign: leads.utmCampaign,
};
