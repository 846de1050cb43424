import 'server-only';
import { alarmTransition, assessDelivery } from '@/lib/delivery-alarm';
import type { Db } from '../db';
import { errorFacts, log } from '../log';
import { readDeliverySummary } from './summary';

/** A running delivery monitor. */
export type DeliveryMonitor = {
  /** Checks once now (also what the timer does); never throws. */
  check(): Promise<void>;
  /** Stops the timer. */
  stop(): void;
};

/**
 * Watches delivery every `intervalMs` (DELIVERY_CHECK_SECONDS) and logs, at error level,
 * `delivery.stalled` with the reasons when the alarm starts and `delivery.recovered` when it ends:
 * once per transition, not per check, for log-based alerting (docs/operations.md). The alarm is on
 * while `assessDelivery` says degraded (oldest pending older than `alertSeconds`, or a failed job).
 * A check the database does not answer changes nothing.
 */
export function startDeliveryMonitor(
  db: Db,
  options: { intervalMs: number; alertSeconds: number },
): DeliveryMonitor {
  let stalled = false;
  let checking: Promise<void> | undefined;
  const check = () =>
    (checking ??= (async () => {
      try {
        const summary = await readDeliverySummary(db);
        const assessment = assessDelivery(summary, options.alertSeconds);
        const event = alarmTransition(stalled, assessment);
        stalled = assessment.status === 'degraded';
        if (event) log.error({ event, reasons: assessment.reasons, ...summary });
      } catch (error) {
        log.warn({ event: 'delivery.check_failed', error: errorFacts(error) });
      }
    })().finally(() => {
      checking = undefined;
    }));
  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();
  void check();
  return { check, stop: () => clearInterval(timer) };
}
