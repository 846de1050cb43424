import 'server-only';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import {
  assessDelivery,
  summarizeDelivery,
  type DeliveryAssessment,
  type DeliverySummary,
} from '@/lib/delivery-alarm';
import { assessPrivacy, combineAssessments, type PrivacySummary } from '@/lib/privacy-alarm';
import { getDatabase, type Db } from '../platform/db';
import { getEnv, type Env } from '../platform/env';
import { errorFacts, log } from '../platform/log';
import { leads } from '../features/contact';
import { readBacklog } from '../delivery/queue/summary';
import { readPrivacySummary } from '../features/privacy';

/**
 * The one assessment of readiness: the database, the delivery backlog and the open privacy
 * requests' due dates. `/api/health` answers with it and the delivery monitor logs its
 * transitions.
 */

/** How long the database may take to answer a health probe (ms). */
const PROBE_TIMEOUT_MS = 2_000;

/** The thresholds of the two alarms. */
export type ReadinessLimits = {
  /** The delivery alarm: oldest pending job older than this (s; DELIVERY_ALERT_MINUTES × 60). */
  alertSeconds: number;
  /** The privacy alarm: an open request overdue or due within this many days (PRIVACY_DUE_ALERT_DAYS). */
  privacyAlertDays: number;
};

/** The database answered: what it holds and the verdicts on it. */
export type Assessed = {
  ready: true;
  delivery: DeliverySummary;
  privacy: PrivacySummary;
  /** The delivery alarm's verdict alone. */
  deliveryAssessment: DeliveryAssessment;
  /** The privacy alarm's verdict alone. */
  privacyAssessment: DeliveryAssessment;
  /** Both verdicts combined (degraded when either is). */
  assessment: DeliveryAssessment;
};

/**
 * Readiness: whether the database answers, and if so the delivery summary, the open privacy
 * requests and the verdict on both.
 */
export type Readiness = { ready: false } | Assessed;

/**
 * Reads the delivery summary from the database: the queue's backlog per channel (jobs due and not
 * delivered, how long the oldest has been due, jobs scheduled for later, failed jobs not
 * acknowledged) and quarantined enquiries (spam verdict, not released).
 * @throws when the database does not answer.
 */
export async function readDeliverySummary(db: Db): Promise<DeliverySummary> {
  const [channels, [quarantined]] = await Promise.all([
    readBacklog(db),
    db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.verdict, 'spam'), isNull(leads.releasedAt))),
  ]);
  return summarizeDelivery(channels, quarantined!.n);
}

/** The variables that set the alarm thresholds. */
type AlarmEnv = Pick<Env, 'DELIVERY_ALERT_MINUTES' | 'PRIVACY_DUE_ALERT_DAYS'>;

/**
 * Reads the delivery summary and the open privacy requests' due dates from `db` and judges them
 * with the environment's thresholds: delivery against DELIVERY_ALERT_MINUTES (the delivery
 * alarm), privacy requests against PRIVACY_DUE_ALERT_DAYS (degraded while one is overdue or due
 * within that many days of `now`).
 * @throws when the database does not answer.
 */
export function assessReadiness(db: Db, env: AlarmEnv, now: Date = new Date()): Promise<Assessed> {
  return assessAgainst(
    db,
    { alertSeconds: env.DELIVERY_ALERT_MINUTES * 60, privacyAlertDays: env.PRIVACY_DUE_ALERT_DAYS },
    now,
  );
}

/**
 * assessReadiness with the thresholds given as `limits` (the delivery monitor's options).
 * @throws when the database does not answer.
 */
export async function assessAgainst(
  db: Db,
  limits: ReadinessLimits,
  now: Date = new Date(),
): Promise<Assessed> {
  const [delivery, privacy] = await Promise.all([
    readDeliverySummary(db),
    readPrivacySummary(db, limits.privacyAlertDays, now),
  ]);
  const deliveryAssessment = assessDelivery(delivery, limits.alertSeconds);
  const privacyAssessment = assessPrivacy(privacy, limits.privacyAlertDays);
  return {
    ready: true,
    delivery,
    privacy,
    deliveryAssessment,
    privacyAssessment,
    assessment: combineAssessments(deliveryAssessment, privacyAssessment),
  };
}

/**
 * Runs `probe` on the site's database within 2 s. Never throws: a database that does not answer
 * in time, or a probe that fails, is null (logged as `health.failed`).
 */
async function withinProbeTimeout<T>(probe: (db: Db) => Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Health probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([getDatabase().then(({ db }) => probe(db)), timeout]);
  } catch (error) {
    log.warn({ event: 'health.failed', error: errorFacts(error) });
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness of this instance: assessReadiness on the site's database within 2 s. Never throws: a
 * database that does not answer in time is `{ ready: false }` (logged).
 */
export async function checkReadiness(): Promise<Readiness> {
  return (await withinProbeTimeout((db) => assessReadiness(db, getEnv()))) ?? { ready: false };
}

/**
 * Whether the database answers `select 1` within 2 s: all an anonymous health probe costs, so
 * that anyone may call it as often as they like without making the database count anything.
 */
export async function databaseAnswers(): Promise<boolean> {
  return (await withinProbeTimeout((db) => probeDatabase(db))) !== null;
}

/**
 * One `select 1` on `db`.
 * @throws when the database does not answer.
 */
export async function probeDatabase(db: Db): Promise<true> {
  await db.execute(sql`select 1`);
  return true;
}

/**
 * What an operator is told of readiness (`/api/health` with the METRICS_TOKEN bearer, and
 * `leads health`): `status` `ok` or `degraded`, the `reasons` when degraded, the delivery summary
 * (the quarantine count included) and the open privacy requests. Never shown to the public: a bot
 * would read its own verdict in the quarantine count.
 */
export function healthDetails({ assessment, delivery, privacy }: Assessed) {
  return {
    status: assessment.status,
    ...(assessment.reasons.length > 0 ? { reasons: assessment.reasons } : {}),
    delivery,
    privacy,
  };
}
