import 'server-only';
import { and, count, eq, gt, lt, max, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { log } from '../log';
import { countUnprovenMail } from '../metrics';
import { unprovenMails, type UnprovenMailBucket } from './schema';

/**
 * The budget of e-mails the site may send to addresses on requests their owners have not proved
 * yet (a booking's confirmation request, a privacy request's link, a "a demo already exists"
 * notice). Anyone can type anyone's address, so the budget must neither let a stranger flood an
 * inbox nor let a stranger spend it so that its owner's own mail is not sent:
 * - per recipient inbox (AddressKeys `mailbox`) over a rolling day there is a ceiling, and one
 *   requesting client group (an IPv4 /24, an IPv6 /48: hashClientGroup) may use only a part of it,
 *   so one client alone never reaches it;
 * - grievance links have their own small budget, so complaints cannot use up the confirmations;
 * - across the site, past 4/5 of the hourly rate a mail set off without a proof of work (no
 *   JavaScript) is not refused but delayed: it leaves later, one every hour/rate, in order, while a
 *   post with the proof of work still sends at once (a flood without it cannot silence the site).
 * Mails the owner set off after proving the address (the invitation after confirming, reminders,
 * cancellations, the copy after a confirmed request, an operator's reply) do not pass here.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Grievance links one client group may have sent to one inbox over a day. */
const GRIEVANCES_PER_CLIENT = 1;

/** The limits (env `UNPROVEN_MAIL_*`, docs/configuration.md). */
export type MailBudgetLimits = {
  /** Ceiling of mails per recipient inbox over any 24 hours, all clients together (default 6). */
  perAddressPerDay: number;
  /** Of those, mails one client group may set off (default 2): below the ceiling. */
  perClientPerDay: number;
  /** Grievance links per recipient inbox over any 24 hours, counted apart (default 2). */
  grievancesPerDay: number;
  /**
   * The site-wide hourly rate (default 200): past 4/5 of it mails without a proof of work are
   * delayed to leave at this rate; reaching it rings the alarm.
   */
  sitePerHour: number;
};

/** Who set a mail off: their client group's keyed hash (null: an operator) and proof of work. */
export type MailRequester = { group: string | null; proofOfWork: boolean };

/**
 * What `admitUnprovenMail` decided: `send` now, `delay` (queue it not before `sendAt`), or why
 * nothing may be sent: the inbox's ceiling (`address-limit`) or the client group's part
 * (`client-limit`).
 */
export type MailAdmission =
  { verdict: 'send' | 'delay'; sendAt: Date } | { verdict: 'address-limit' | 'client-limit' };

/** The site-wide count of the hour past which a mail without proof of work is delayed. */
export function busyThreshold(limits: MailBudgetLimits): number {
  return Math.floor((limits.sitePerHour * 4) / 5);
}

/**
 * Whether the site is busy at `now`: the mails counted over the last hour (and those delayed to
 * leave later) have reached busyThreshold, so a mail without a proof of work would wait. It
 * depends on the site, never on an address: what a page may tell any visitor.
 */
export async function isSiteBusy(db: Db, now: Date, limits: MailBudgetLimits): Promise<boolean> {
  return (await countForSite(db, now)) >= busyThreshold(limits);
}

async function countForSite(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(unprovenMails)
    .where(gt(unprovenMails.at, new Date(now.getTime() - HOUR_MS)));
  return row?.n ?? 0;
}

/**
 * Counts one e-mail of `kind` (e.g. `demo.confirm`, `privacy.link`) to the inbox of keyed hash
 * `emailHash` (AddressKeys `mailbox`: every spelling of one inbox shares its budget), set off by
 * `requester` at `now`, in `bucket` (`grievance` links apart from the rest), and says whether and
 * when it may be sent. Run it in the transaction that enqueues the mail: it takes a
 * transaction-scoped lock on the inbox so that concurrent requests on any instance are counted
 * exactly, and a refused or failed request counts nothing. Refused, the caller sends nothing and
 * tells the visitor the same as when it sends (nothing shows whether an address is known); delayed,
 * the caller queues the mail not before `sendAt`. Logs `mail.unproven_refused` (warn),
 * `mail.unproven_delayed` (info) and, when the site-wide rate is reached,
 * `mail.unproven_site_limit` (error: the alarm); counts `nirmaya_unproven_mails_total`.
 */
export async function admitUnprovenMail(
  db: Db,
  mail: {
    emailHash: string;
    kind: string;
    bucket?: UnprovenMailBucket;
    requester: MailRequester;
    now: Date;
  },
  limits: MailBudgetLimits,
): Promise<MailAdmission> {
  const { emailHash, kind, requester, now } = mail;
  const bucket = mail.bucket ?? 'proof';
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${emailHash}, 7))`);
  const sent = await db
    .select({ group: unprovenMails.clientGroup })
    .from(unprovenMails)
    .where(
      and(
        eq(unprovenMails.emailHash, emailHash),
        eq(unprovenMails.bucket, bucket),
        gt(unprovenMails.at, new Date(now.getTime() - DAY_MS)),
      ),
    );
  const [ceiling, perClient] =
    bucket === 'grievance'
      ? [limits.grievancesPerDay, GRIEVANCES_PER_CLIENT]
      : [limits.perAddressPerDay, limits.perClientPerDay];
  const fromGroup = sent.filter((row) => row.group === requester.group).length;
  const refused =
    sent.length >= ceiling ? 'address-limit' : fromGroup >= perClient ? 'client-limit' : null;
  if (refused) {
    countUnprovenMail(kind, refused);
    log.warn({ event: 'mail.unproven_refused', kind, reason: refused });
    return { verdict: refused };
  }
  const forSite = await countForSite(db, now);
  const delayed = forSite >= busyThreshold(limits) && !requester.proofOfWork;
  const sendAt = delayed ? await nextDelayedSlot(db, now, limits) : now;
  await db.insert(unprovenMails).values({
    emailHash,
    clientGroup: requester.group,
    bucket,
    kind,
    at: sendAt,
  });
  const verdict = delayed ? 'delay' : 'send';
  countUnprovenMail(kind, verdict);
  if (delayed) log.info({ event: 'mail.unproven_delayed', kind, sendAt: sendAt.toISOString() });
  if (forSite + 1 === limits.sitePerHour)
    log.error({ event: 'mail.unproven_site_limit', kind, perHour: limits.sitePerHour });
  return { verdict, sendAt };
}

/**
 * When the next delayed mail leaves: one hour/`sitePerHour` after the latest mail counted (delayed
 * ones are counted at their time), and not before that long after `now`. Takes a site-wide
 * transaction lock so that two delayed mails never get the same time.
 */
async function nextDelayedSlot(db: Db, now: Date, limits: MailBudgetLimits): Promise<Date> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('unproven-mail-slots', 7))`);
  const [latest] = await db.select({ at: max(unprovenMails.at) }).from(unprovenMails);
  const spacing = Math.ceil(HOUR_MS / limits.sitePerHour);
  const after = Math.max(now.getTime(), latest?.at?.getTime() ?? 0);
  return new Date(after + spacing);
}

/** Deletes the counts older than a day at `now` (the daily purge): none outlives its window. */
export async function purgeUnprovenMails(db: Db, now: Date): Promise<void> {
  await db.delete(unprovenMails).where(lt(unprovenMails.at, new Date(now.getTime() - DAY_MS)));
}

/** The environment variables of the budget (docs/configuration.md). */
export type MailBudgetEnv = {
  UNPROVEN_MAIL_PER_ADDRESS: number;
  UNPROVEN_MAIL_PER_CLIENT: number;
  UNPROVEN_GRIEVANCES_PER_ADDRESS: number;
  UNPROVEN_MAIL_PER_HOUR: number;
};

/** The limits from the environment's `UNPROVEN_*` variables. */
export function mailBudgetLimits(env: MailBudgetEnv): MailBudgetLimits {
  return {
    perAddressPerDay: env.UNPROVEN_MAIL_PER_ADDRESS,
    perClientPerDay: env.UNPROVEN_MAIL_PER_CLIENT,
    grievancesPerDay: env.UNPROVEN_GRIEVANCES_PER_ADDRESS,
    sitePerHour: env.UNPROVEN_MAIL_PER_HOUR,
  };
}
