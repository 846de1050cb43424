import { describe, expect, it } from 'vitest';
import { alarmTransition, assessDelivery, type DeliverySummary } from './delivery-alarm';

const summary = (values: Partial<DeliverySummary>): DeliverySummary => ({
  pending: 0,
  oldestPendingSeconds: 0,
  failed: 0,
  quarantined: 0,
  ...values,
});

describe('assessDelivery', () => {
  it('is ok with nothing pending, a young backlog or quarantined spam', () => {
    expect(assessDelivery(summary({}), 900)).toEqual({ status: 'ok', reasons: [] });
    expect(assessDelivery(summary({ pending: 40, oldestPendingSeconds: 900 }), 900).status).toBe(
      'ok',
    );
    expect(assessDelivery(summary({ quarantined: 12 }), 900).status).toBe('ok');
  });

  it('is degraded when the oldest pending job is past the threshold or a job failed, saying why', () => {
    expect(assessDelivery(summary({ pending: 3, oldestPendingSeconds: 901 }), 900)).toEqual({
      status: 'degraded',
      reasons: ['oldest pending notification is 901 s old (alert after 900 s)'],
    });
    expect(assessDelivery(summary({ failed: 2 }), 900)).toEqual({
      status: 'degraded',
      reasons: ['2 notifications failed'],
    });
    expect(
      assessDelivery(summary({ pending: 1, oldestPendingSeconds: 5, failed: 1 }), 3).reasons,
    ).toHaveLength(2);
  });
});

describe('alarmTransition', () => {
  const ok = { status: 'ok' as const, reasons: [] };
  const degraded = { status: 'degraded' as const, reasons: ['1 notification failed'] };

  it('reports a stall once and a recovery once over a sequence of checks', () => {
    let stalled = false;
    const events: string[] = [];
    for (const assessment of [ok, degraded, degraded, degraded, ok, ok, degraded, ok]) {
      const event = alarmTransition(stalled, assessment);
      if (event) events.push(event);
      stalled = assessment.status === 'degraded';
    }
    expect(events).toEqual([
      'delivery.stalled',
      'delivery.recovered',
      'delivery.stalled',
      'delivery.recovered',
    ]);
  });
});
