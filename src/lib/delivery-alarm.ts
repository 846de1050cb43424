/** What the alarm knows about one kind of job, a "channel" (e.g. `enquiry.email`). */
export type ChannelBacklog = {
  /** Jobs due and not done yet (pending or being sent). Jobs not yet due do not count. */
  due: number;
  /** Seconds since the longest-waiting of those became due (its not-before time), 0 when none. */
  oldestDueSeconds: number;
  /** Jobs waiting for a later time (e.g. a reminder): shown, never an alarm. */
  scheduled: number;
  /** Jobs given up on and not acknowledged by an operator. */
  failed: number;
  /** Failed jobs an operator acknowledged (`leads ack`): shown, no longer an alarm. */
  acknowledged: number;
};

/** What `/api/health`, the metrics and the delivery monitor know about delivery. */
export type DeliverySummary = {
  /** Jobs due and not delivered yet, over every channel. */
  pending: number;
  /** Seconds since the longest-waiting due job became due, 0 when there is none. */
  oldestPendingSeconds: number;
  /** Jobs not yet due (e.g. reminders), over every channel. */
  scheduled: number;
  /** Jobs given up on and not acknowledged, over every channel. */
  failed: number;
  /** Enquiries quarantined as spam and not released. */
  quarantined: number;
  /** The same per channel; channels with nothing waiting or failed are left out. */
  channels: Record<string, ChannelBacklog>;
};

/** Sums a per-channel backlog into a DeliverySummary with `quarantined` enquiries. */
export function summarizeDelivery(
  channels: Record<string, ChannelBacklog>,
  quarantined: number,
): DeliverySummary {
  const all = Object.values(channels);
  const total = (pick: (backlog: ChannelBacklog) => number) =>
    all.reduce((sum, backlog) => sum + pick(backlog), 0);
  return {
    pending: total((backlog) => backlog.due),
    oldestPendingSeconds: Math.max(0, ...all.map((backlog) => backlog.oldestDueSeconds)),
    scheduled: total((backlog) => backlog.scheduled),
    failed: total((backlog) => backlog.failed),
    quarantined,
    channels,
  };
}

/** The verdict on a summary: `degraded` with the reasons, or `ok`. */
export type DeliveryAssessment = { status: 'ok' | 'degraded'; reasons: string[] };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Judges delivery per channel: degraded when a channel's oldest due job has waited longer than
 * `alertSeconds` (DELIVERY_ALERT_MINUTES × 60) since it became due, or a channel has failed jobs
 * not acknowledged. Jobs not yet due never count. Reasons are short English sentences naming the
 * channel, without personal data.
 */
export function assessDelivery(summary: DeliverySummary, alertSeconds: number): DeliveryAssessment {
  const reasons: string[] = [];
  for (const [channel, backlog] of Object.entries(summary.channels)) {
    if (backlog.due > 0 && backlog.oldestDueSeconds > alertSeconds)
      reasons.push(
        `${channel}: oldest pending job is ${backlog.oldestDueSeconds} s overdue (alert after ${alertSeconds} s)`,
      );
    if (backlog.failed > 0) reasons.push(`${channel}: ${plural(backlog.failed, 'job')} failed`);
  }
  return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons };
}

/** The delivery alarm's log events: logged once when it starts and once when it ends. */
export const deliveryAlarmEvents = ['delivery.stalled', 'delivery.recovered'] as const;

/**
 * An alarm's transition from `on` (was the alarm on) to the new assessment: the event to log, or
 * null when nothing changed (so an alarm is reported once, not at every check). `events` names the
 * start and the end, by default the delivery alarm's (deliveryAlarmEvents).
 */
export function alarmTransition(
  on: boolean,
  assessment: DeliveryAssessment,
  events: readonly [start: string, end: string] = deliveryAlarmEvents,
): string | null {
  const degraded = assessment.status === 'degraded';
  if (degraded === on) return null;
  return degraded ? events[0] : events[1];
}
