import 'server-only';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { auditLog } from '../../platform/audit/schema';
import { purgeUnprovenMails } from '../../platform/people/mail-budget';
import { suppressions, unprovenMails } from '../../platform/people/schema';
import { rateLimits } from '../../platform/rate-limit/schema';
import { addCounts, type PersonalDataHolder, type Retention } from './personal-data';
import { grievanceAdditions, privacyRequests } from './schema';
import { dropPrivacyJobsOf, purgeStalePrivacyJobs } from './stale-jobs';

/**
 * How long the tombstone of an answered privacy request is kept, in days (3 years): long enough to
 * prove a request was honoured, stated in the privacy policy.
 */
export const PRIVACY_TOMBSTONE_DAYS = 3 * 365;

const DAY_MS = 86_400_000;

/**
 * Privacy's own registration: its requests (the address and words while open, with a grievance's
 * additions; then a tombstone holding a keyed hash, kept PRIVACY_TOMBSTONE_DAYS after closing) and
 * the people's data of the
 * platform that privacy looks after: the suppression list (keyed hashes, lifted only by the
 * owner's confirmed "hear from us again" request), the audit log (scrubbed of the address by an erasure, purged by retention) and the
 * rate-limit windows (keyed hashes of client addresses, purged by retention) and the counts of
 * mails to unproven addresses (keyed hashes, purged after a day). An erasure closes
 * the request it honours itself (erase.ts); here it drops the privacy e-mails queued for the
 * address (links and replies: their payloads hold it), and the daily purge drops the failed or
 * waiting `privacy.*` jobs older than 30 days (stale-jobs.ts).
 */
export const privacyPersonalData: PersonalDataHolder = {
  name: 'privacy',
  tables: [privacyRequests, grievanceAdditions, suppressions, auditLog, rateLimits, unprovenMails],
  erase: async (tx, email) => {
    await dropPrivacyJobsOf(tx, email);
    return { counts: {}, sharedReferences: [] };
  },
  expire: async (db, now) => {
    await purgeStalePrivacyJobs(db, now);
    await db
      .delete(privacyRequests)
      .where(
        and(
          eq(privacyRequests.status, 'closed'),
          lt(privacyRequests.closedAt, new Date(now.getTime() - PRIVACY_TOMBSTONE_DAYS * DAY_MS)),
        ),
      );
    return {};
  },
};

/**
 * The daily purge: each of `holders` (in order) deletes or forgets what is past `retention` at
 * `now` (enquiries after `retention.leadsDays`, spam never released after `retention.spamDays`,
 * the client hash of demos that are over, tombstones closed more than PRIVACY_TOMBSTONE_DAYS
 * ago); then what the platform holds goes: rate-limit windows older than a day, and audit rows
 * older than the leads' retention (the audit log is kept as long as enquiries).
 * @returns how many enquiries were deleted.
 * @throws on database errors.
 */
export async function purgeExpired(
  db: Db,
  holders: readonly PersonalDataHolder[],
  retention: Retention,
  now: Date = new Date(),
): Promise<number> {
  const parts = [];
  for (const holder of holders)
    if (holder.expire) parts.push(await holder.expire(db, now, retention));
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - DAY_MS)));
  await purgeUnprovenMails(db, now);
  await db
    .delete(auditLog)
    .where(lt(auditLog.at, new Date(now.getTime() - retention.leadsDays * DAY_MS)));
  return addCounts(parts).enquiries;
}
