import 'server-only';
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { log } from '../log';
import { countUnprovenMail } from '../metrics';
import { unprovenMails } from './schema';

/**
 * The budget of e-mails the site may send to addresses on requests their owners have not proved
 * yet (a booking's confirmation request, a privacy request's link, a "a demo already exists"
 * notice): anyone can type anyone's address, so each such mail counts against a per-recipient
 * limit over a rolling day and a site-wide hourly limit, and past either nothing is sent. Mails the
 * owner set off after proving the address (the invitation after confirming, reminders,
 * cancellations, the copy after a confirmed request, an operator's reply) do not pass here.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The limits (env `UNPROVEN_MAIL_PER_ADDRESS`, `UNPROVEN_MAIL_PER_HOUR`). */
export type MailBudgetLimits = {
  /** Mails per recipient over any 24 hours (default 3). */
  perAddressPerDay: number;
  /** Mails over any hour across the whole site (default 200); reaching it rings the alarm. */
  sitePerHour: number;
};

/** What `admitUnprovenMail` decided: `send`, or why nothing may be sent. */
export type MailBudgetVerdict = 'send' | 'address-limit' | 'site-limit';

/**
 * Counts one e-mail of `kind` (e.g. `demo.confirm`, `privacy.link`) to the inbox of keyed hash
 * `emailHash` (AddressKeys `mailbox`: every spelling of one inbox shares its budget) at `now` and says whether it may be sent. Run it in the transaction that enqueues
 * the mail: it takes a transaction-scoped lock on the address so that concurrent requests on any
 * instance are counted exactly, and a refused or failed request counts nothing. Past a limit the
 * caller sends nothing and tells the visitor the same as when it sends (nothing shows whether an
 * address is known); this logs `mail.unproven_refused` (warn) and, when the site-wide limit is
 * reached, `mail.unproven_site_limit` (error: the alarm).
 * @returns `send` (counted), `address-limit` or `site-limit` (not counted).
 */
export async function admitUnprovenMail(
  db: Db,
  mail: { emailHash: string; kind: string; now: Date },
  limits: MailBudgetLimits,
): Promise<MailBudgetVerdict> {
  const { emailHash, kind, now } = mail;
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${emailHash}, 7))`);
  const [forAddress] = await db
    .select({ n: count() })
    .from(unprovenMails)
    .where(
      and(
        eq(unprovenMails.emailHash, emailHash),
        gt(unprovenMails.at, new Date(now.getTime() - DAY_MS)),
      ),
    );
  const [forSite] = await db
    .select({ n: count() })
    .from(unprovenMails)
    .where(gt(unprovenMails.at, new Date(now.getTime() - HOUR_MS)));
  const verdict: MailBudgetVerdict =
    (forAddress?.n ?? 0) >= limits.perAddressPerDay
      ? 'address-limit'
      : (forSite?.n ?? 0) >= limits.sitePerHour
        ? 'site-limit'
        : 'send';
  countUnprovenMail(kind, verdict);
  if (verdict === 'send') {
    await db.insert(unprovenMails).values({ emailHash, kind, at: now });
    if ((forSite?.n ?? 0) + 1 === limits.sitePerHour)
      log.error({ event: 'mail.unproven_site_limit', kind, perHour: limits.sitePerHour });
  } else log.warn({ event: 'mail.unproven_refused', kind, reason: verdict });
  return verdict;
}

/** Deletes the counts older than a day at `now` (the daily purge): none outlives its window. */
export async function purgeUnprovenMails(db: Db, now: Date): Promise<void> {
  await db.delete(unprovenMails).where(lt(unprovenMails.at, new Date(now.getTime() - DAY_MS)));
}

/** The limits from the environment's `UNPROVEN_MAIL_PER_ADDRESS` and `UNPROVEN_MAIL_PER_HOUR`. */
export function mailBudgetLimits(env: {
  UNPROVEN_MAIL_PER_ADDRESS: number;
  UNPROVEN_MAIL_PER_HOUR: number;
}): MailBudgetLimits {
  return {
    perAddressPerDay: env.UNPROVEN_MAIL_PER_ADDRESS,
    sitePerHour: env.UNPROVEN_MAIL_PER_HOUR,
  };
}
