import 'server-only';
import { alarmTransition } from '@/lib/delivery-alarm';
import { privacyAlarmEvents } from '@/lib/privacy-alarm';
import type { Db } from '../platform/db';
import { errorFacts, log } from '../platform/log';
import { assessAgainst } from './readiness';

/** A running delivery monitor. */
export type DeliveryMonitor = {
  /** Checks once now (also what the timer does); never throws. */
  check(): Promise<void>;
  /** Stops the timer. */
  stop(): void;
};

/**
 * Watches delivery and the open privacy requests every `intervalMs` (DELIVERY_CHECK_SECONDS), by
 * the readiness assessment `/api/health` answers with, and logs once per transition, not per check, for log-based alerting (docs/operations.md):
 * - at error level, `delivery.stalled` with the reasons when the delivery alarm starts and
 *   `delivery.recovered` when it ends; it is on while `assessDelivery` says degraded (oldest
 *   pending older than `alertSeconds`, or a failed job);
 * - at warn level, `privacy.due_soon` with the reasons and counts when an open privacy request
 *   becomes due within `privacyAlertDays` days (or overdue), and `privacy.due_cleared` when none
 *   is any more (answered, or closed).
 * A check the database does not answer changes nothing.
 */
export function startDeliveryMonitor(
  db: Db,
  options: { intervalMs: number; alertSeconds: number; privacyAlertDays: number },
): DeliveryMonitor {
  let stalled = false;
  let privacyDue = false;
  let checking: Promise<void> | undefined;
  const check = () =>
    (checking ??= (async () => {
      try {
        const { delivery, privacy, deliveryAssessment, privacyAssessment } = await assessAgainst(
          db,
          options,
        );
        const event = alarmTransition(stalled, deliveryAssessment);
        stalled = deliveryAssessment.status === 'degraded';
        if (event) log.error({ event, reasons: deliveryAssessment.reasons, ...delivery });

        const privacyEvent = alarmTransition(privacyDue, privacyAssessment, privacyAlarmEvents);
        privacyDue = privacyAssessment.status === 'degraded';
        if (privacyEvent)
          log.warn({ event: privacyEvent, reasons: privacyAssessment.reasons, ...privacy });
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
