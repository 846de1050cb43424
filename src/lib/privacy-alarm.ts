import type { DeliveryAssessment } from './delivery-alarm';

/**
 * The privacy-request alarm: open requests must be answered by their due date (90 days from
 * verification, DPDP Rules 2025, rule 14). Pure: the caller reads the due dates and passes `now`.
 */

/** Days before its due date an open request starts ringing the alarm (PRIVACY_DUE_ALERT_DAYS). */
export const DEFAULT_PRIVACY_DUE_ALERT_DAYS = 7;

const DAY_MS = 86_400_000;

/**
 * Where an open request stands at `now`: `overdue` once its due date has passed (or is now),
 * `due-soon` when it falls within the next `alertDays` days, `later` otherwise.
 * @param alertDays whole or fractional days (PRIVACY_DUE_ALERT_DAYS)
 */
export function dueState(
  dueAt: Date,
  now: Date,
  alertDays: number,
): 'overdue' | 'due-soon' | 'later' {
  const left = dueAt.getTime() - now.getTime();
  if (left <= 0) return 'overdue';
  return left <= alertDays * DAY_MS ? 'due-soon' : 'later';
}

/** What `/api/health`, the metrics and the monitor know about open privacy requests. */
export type PrivacySummary = {
  /** Open requests (closed ones, the tombstones, never count). */
  open: number;
  /** Open requests due within the alert window and not yet overdue. */
  dueSoon: number;
  /** Open requests past their due date. */
  overdue: number;
  /** The earliest due date of an open request (ISO 8601), null when none is open. */
  oldestDueAt: string | null;
};

/**
 * Summarises the due dates of the open requests at `now` (see dueState for the windows).
 * @param openDueDates the due dates of open requests only
 */
export function summarizePrivacy(
  openDueDates: readonly Date[],
  now: Date,
  alertDays: number,
): PrivacySummary {
  const states = openDueDates.map((dueAt) => dueState(dueAt, now, alertDays));
  const oldest = openDueDates.reduce<Date | null>(
    (earliest, dueAt) => (earliest && earliest <= dueAt ? earliest : dueAt),
    null,
  );
  return {
    open: openDueDates.length,
    dueSoon: states.filter((state) => state === 'due-soon').length,
    overdue: states.filter((state) => state === 'overdue').length,
    oldestDueAt: oldest?.toISOString() ?? null,
  };
}

const plural = (n: number) => `${n} privacy request${n === 1 ? '' : 's'}`;

/**
 * Judges the summary: degraded while any open request is overdue or due within `alertDays` days,
 * with one reason each (counts and the earliest due date, no personal data); ok otherwise.
 */
export function assessPrivacy(summary: PrivacySummary, alertDays: number): DeliveryAssessment {
  const reasons: string[] = [];
  if (summary.overdue > 0)
    reasons.push(`privacy: ${plural(summary.overdue)} overdue (due since ${summary.oldestDueAt})`);
  if (summary.dueSoon > 0)
    reasons.push(`privacy: ${plural(summary.dueSoon)} due within ${alertDays} days`);
  return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons };
}

/** The privacy alarm's log events: logged once when it starts and once when it clears. */
export const privacyAlarmEvents = ['privacy.due_soon', 'privacy.due_cleared'] as const;

/** One verdict from several: degraded with every reason when any of them is degraded. */
export function combineAssessments(...assessments: DeliveryAssessment[]): DeliveryAssessment {
  const reasons = assessments.flatMap((assessment) => assessment.reasons);
  return {
    status: assessments.some((assessment) => assessment.status === 'degraded') ? 'degraded' : 'ok',
    reasons,
  };
}
