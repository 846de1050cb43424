import 'server-only';
import {
  assessDelivery,
  type DeliveryAssessment,
  type DeliverySummary,
} from '@/lib/delivery-alarm';
import { assessPrivacy, combineAssessments, type PrivacySummary } from '@/lib/privacy-alarm';
import { getDatabase, type Db } from '../platform/db';
import { readDeliverySummary } from './delivery-summary';
import { getEnv, type Env } from '../platform/env';
import { errorFacts, log } from '../platform/log';
import { readPrivacySummary } from '../features/privacy/requests';

/** How long the database may take to answer a health probe (ms). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Readiness: whether the database answers, and if so the delivery summary, the open privacy
 * requests and the verdict on both.
 */
export type Readiness =
  | { ready: false }
  | {
      ready: true;
      delivery: DeliverySummary;
      privacy: PrivacySummary;
      assessment: DeliveryAssessment;
    };

/**
 * Reads the delivery summary and the open privacy requests' due dates from `db` and judges them:
 * delivery against DELIVERY_ALERT_MINUTES (the delivery alarm), privacy requests against
 * PRIVACY_DUE_ALERT_DAYS (degraded while one is overdue or due within that many days of `now`).
 * @throws when the database does not answer.
 */
export async function assessReadiness(
  db: Db,
  env: Pick<Env, 'DELIVERY_ALERT_MINUTES' | 'PRIVACY_DUE_ALERT_DAYS'>,
  now: Date = new Date(),
): Promise<Readiness & { ready: true }> {
  const [delivery, privacy] = await Promise.all([
    readDeliverySummary(db),
    readPrivacySummary(db, env.PRIVACY_DUE_ALERT_DAYS, now),
  ]);
  return {
    ready: true,
    delivery,
    privacy,
    assessment: combineAssessments(
      assessDelivery(delivery, env.DELIVERY_ALERT_MINUTES * 60),
      assessPrivacy(privacy, env.PRIVACY_DUE_ALERT_DAYS),
    ),
  };
}

/**
 * Readiness of this instance: assessReadiness on the site's database within 2 s. Never throws: a
 * database that does not answer in time is `{ ready: false }` (logged).
 */
export async function checkReadiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Health probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      getDatabase().then(({ db }) => assessReadiness(db, getEnv())),
      timeout,
    ]);
  } catch (error) {
    log.warn({ event: 'health.failed', error: errorFacts(error) });
    return { ready: false };
  } finally {
    clearTimeout(timer);
  }
}
