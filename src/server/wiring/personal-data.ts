import 'server-only';
import type { Db } from '../platform/db';
import { getSiteEnv, type SiteEnv } from './env';
import { appSecrets, keyFingerprints } from '../platform/security/schema';
import { contactPersonalData } from '../features/contact';
import {
  operatorAccounts,
  operatorSessions,
  operators,
  pendingActs,
  signInTokens,
} from '../features/console';
import { demosPersonalData, bookingSettings, isBookingOn } from '../features/demos';
import type { BookingSettings } from '../features/demos/types';
import type { FreeTable, PersonalDataHolder, Retention } from '../features/privacy';
import { privacyPersonalData, purgeExpired as purgeHeld } from '../features/privacy';
import {
  funnelCounts,
  pendingDemos,
  purgeSources,
  visitCounts,
  visitHashes,
  visitSalts,
} from '../features/sources';

/**
 * Who holds a person's data, composed in one place and handed to privacy's copy and erasure and to
 * retention (src/server/features/privacy/personal-data.ts says what each part does).
 */

/** What the registrations need from the configuration. */
export type PersonalDataConfig = {
  /** The booking settings when booking is on: an erasure cancels live demos with them first. */
  settings?: BookingSettings;
  /** `LEADS_TO` and `WEBHOOK_URLS`: where enquiries were shared, for a person's copy. */
  leadsTo?: string;
  webhookUrls: readonly string[];
};

/**
 * Every registration, in erasure order: a holder whose rows hang on another's comes first, so the
 * demos are cancelled (METHOD:CANCEL delivered), counted and erased before the contact form erases
 * the enquiries they hang on; privacy's own (requests, tombstones) last. A person's copy reads
 * them the other way round (the enquiry, then its demos).
 */
export function personalData(config: PersonalDataConfig): PersonalDataHolder[] {
  return [
    demosPersonalData(config.settings),
    contactPersonalData({ leadsTo: config.leadsTo, webhookUrls: config.webhookUrls }),
    privacyPersonalData,
  ];
}

/** `personalData` with the site's configuration. */
export function personalDataOf(env: SiteEnv = getSiteEnv()): PersonalDataHolder[] {
  return personalData({
    settings: isBookingOn(env) ? bookingSettings(env) : undefined,
    leadsTo: env.LEADS_TO,
    webhookUrls: env.WEBHOOK_URLS,
  });
}

/**
 * Tables no registration holds, and why: neither a copy, an erasure nor retention applies to them.
 * The console's are staff, not visitors: an operator's rows (their address, sessions with the
 * browser's address and user agent, pending sign-in links) are personal data of an employee or
 * agent of the vendor, kept while they may sign in and removed with them (`leads operators
 * remove`, the console; sessions and accounts by foreign key). A visitor's request never reaches
 * them: only an operator's address gets a sign-in link (a stranger's gets no row).
 */
export const tablesFreeOfPersonalData: readonly FreeTable[] = [
  { table: appSecrets, reason: "the site's own generated secret: nobody's data" },
  {
    table: keyFingerprints,
    reason:
      "a keyed hash of a fixed label under the site key (which key the hashes were made with): nobody's data",
  },
  { table: operators, reason: 'staff accounts, not visitors: removed with the operator' },
  { table: operatorSessions, reason: 'staff sessions: expire, and go with their operator' },
  { table: operatorAccounts, reason: "staff's better-auth accounts: go with their operator" },
  { table: signInTokens, reason: "staff's pending sign-in links, hashed; only operators get one" },
  {
    table: pendingActs,
    reason:
      "an operator's own act awaiting a fresh sign-in (references, a colleague's address): 25 minutes, goes with its operator",
  },
  { table: visitCounts, reason: 'daily page-view totals per page and source: no visitor in them' },
  { table: funnelCounts, reason: 'daily totals of enquiries and demos per source: nobody in them' },
  {
    table: pendingDemos,
    reason: "a booking's id, start and campaign until it is counted; cancelled (erased) ones go",
  },
  {
    table: visitSalts,
    reason: "one random value per day, nobody's data; deleted when the day ends",
  },
  {
    table: visitHashes,
    reason:
      "salted hashes counting a day's visitors once; deleted with the day's salt, which alone could link them",
  },
];

/**
 * The daily purge (retention.ts) over the site's registrations: enquiries past
 * `retention.leadsDays` (LEADS_RETENTION_DAYS) and spam never released past `retention.spamDays`
 * (SPAM_RETENTION_DAYS; `retention` may be just the leads' days, the spam's then coming from the
 * environment), with what each registration and the platform expire. Returns how many enquiries
 * were deleted.
 */
export async function purgeExpired(
  db: Db,
  retention: number | Retention,
  now = new Date(),
): Promise<number> {
  const env = getSiteEnv();
  const days =
    typeof retention === 'number'
      ? { leadsDays: retention, spamDays: env.SPAM_RETENTION_DAYS }
      : retention;
  await purgeSources(
    db,
    { timeZone: env.SITE_TIME_ZONE, retentionMonths: env.SOURCES_RETENTION_MONTHS },
    now,
  );
  return purgeHeld(db, personalDataOf(env), days, now);
}
