/** What `/api/health` and the delivery monitor know about the outbox (issue 10, item 7). */
export type DeliverySummary = {
  /** Jobs not delivered yet (pending, or being sent). */
  pending: number;
  /** Age of the oldest of those jobs (s, whole seconds), 0 when there is none. */
  oldestPendingSeconds: number;
  /** Jobs given up on (`failed`, until `leads retry`). */
  failed: number;
  /** Enquiries quarantined as spam and not released. */
  quarantined: number;
};

/** The verdict on a summary: `degraded` with the reasons, or `ok`. */
export type DeliveryAssessment = { status: 'ok' | 'degraded'; reasons: string[] };

/**
 * Judges delivery: degraded when the oldest pending notification is older than `alertSeconds`
 * (DELIVERY_ALERT_MINUTES × 60) or any job failed; reasons are short English sentences without
 * personal data.
 */
export function assessDelivery(summary: DeliverySummary, alertSeconds: number): DeliveryAssessment {
  const reasons: string[] = [];
  if (summary.pending > 0 && summary.oldestPendingSeconds > alertSeconds) {
    reasons.push(
      `oldest pending notification is ${summary.oldestPendingSeconds} s old (alert after ${alertSeconds} s)`,
    );
  }
  if (summary.failed > 0)
    reasons.push(`${summary.failed} notification${summary.failed === 1 ? '' : 's'} failed`);
  return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons };
}

/** The alarm's log events: logged once when it starts and once when it ends. */
export type AlarmEvent = 'delivery.stalled' | 'delivery.recovered';

/**
 * The alarm's transition from `stalled` (was the alarm on) to the new assessment: the event to log,
 * or null when nothing changed (so a stall is reported once, not at every check).
 */
export function alarmTransition(
  stalled: boolean,
  assessment: DeliveryAssessment,
): AlarmEvent | null {
  const degraded = assessment.status === 'degraded';
  if (degraded === stalled) return null;
  return degraded ? 'delivery.stalled' : 'delivery.recovered';
}
