import 'server-only';
import {
  assessDelivery,
  type DeliveryAssessment,
  type DeliverySummary,
} from '@/lib/delivery-alarm';
import { getDatabase } from './db';
import { readDeliverySummary } from './delivery/summary';
import { getEnv } from './env';
import { errorFacts, log } from './log';

/** How long the database may take to answer a health probe (ms). */
const PROBE_TIMEOUT_MS = 2_000;

/** Readiness: whether the database answers, and if so the delivery summary and its verdict. */
export type Readiness =
  { ready: false } | { ready: true; delivery: DeliverySummary; assessment: DeliveryAssessment };

/**
 * Probes the database by reading the delivery summary (within 2 s) and judges it against
 * DELIVERY_ALERT_MINUTES (the delivery alarm). Never throws: a database that does not answer in
 * time is `{ ready: false }` (logged).
 */
export async function checkReadiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Health probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    const delivery = await Promise.race([
      getDatabase().then(({ db }) => readDeliverySummary(db)),
      timeout,
    ]);
    return {
      ready: true,
      delivery,
      assessment: assessDelivery(delivery, getEnv().DELIVERY_ALERT_MINUTES * 60),
    };
  } catch (error) {
    log.warn({ event: 'health.failed', error: errorFacts(error) });
    return { ready: false };
  } finally {
    clearTimeout(timer);
  }
}
