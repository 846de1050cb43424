import { describe, expect, it } from 'vitest';
import {
  alarmTransition,
  assessDelivery,
  summarizeDelivery,
  type ChannelBacklog,
  type DeliverySummary,
} from './delivery-alarm';

const backlog = (values: Partial<ChannelBacklog>): ChannelBacklog => ({
  due: 0,
  oldestDueSeconds: 0,
  scheduled: 0,
  failed: 0,
  acknowledged: 0,
  ...values,
});

/** A summary of the enquiry e-mails' channel alone (`email`), as before there were channels. */
const summary = (email: Partial<ChannelBacklog> | null, quarantined = 0): DeliverySummary =>
  summarizeDelivery(email ? { 'enquiry.email': backlog(email) } : {}, quarantined);

describe('assessDelivery', () => {
  it('is ok with nothing pending, a young backlog or quarantined spam', () => {
    expect(assessDelivery(summary(null), 900)).toEqual({ status: 'ok', reasons: [] });
    expect(assessDelivery(summary({ due: 40, oldestDueSeconds: 900 }), 900).status).toBe('ok');
    expect(assessDelivery(summary(null, 12), 900).status).toBe('ok');
  });

  it('is degraded when the oldest pending job is past the threshold or a job failed, saying why', () => {
    expect(assessDelivery(summary({ due: 3, oldestDueSeconds: 901 }), 900)).toEqual({
      status: 'degraded',
      reasons: ['enquiry.email: oldest pending job is 901 s overdue (alert after 900 s)'],
    });
    expect(assessDelivery(summary({ failed: 2 }), 900)).toEqual({
      status: 'degraded',
      reasons: ['enquiry.email: 2 jobs failed'],
    });
    expect(
      assessDelivery(summary({ due: 1, oldestDueSeconds: 5, failed: 1 }), 3).reasons,
    ).toHaveLength(2);
  });

  it('is ok for a channel with only jobs not yet due and acknowledged failures', () => {
    const waiting = summarizeDelivery(
      { 'demo.mail': backlog({ scheduled: 3, failed: 0, acknowledged: 2 }) },
      0,
    );
    expect(waiting).toMatchObject({ pending: 0, oldestPendingSeconds: 0, scheduled: 3, failed: 0 });
    expect(assessDelivery(waiting, 900)).toEqual({ status: 'ok', reasons: [] });
  });

  it('names each channel with each of its reasons when two channels are degraded', () => {
    const both = summarizeDelivery(
      {
        'enquiry.email': backlog({ due: 2, oldestDueSeconds: 1_200, failed: 1 }),
        'enquiry.webhook': backlog({ due: 1, oldestDueSeconds: 901, failed: 3, acknowledged: 4 }),
        'demo.mail': backlog({ due: 5, oldestDueSeconds: 30, scheduled: 2 }),
      },
      1,
    );
    expect(both).toMatchObject({
      pending: 8,
      oldestPendingSeconds: 1_200,
      scheduled: 2,
      failed: 4,
      quarantined: 1,
    });
    expect(assessDelivery(both, 900)).toEqual({
      status: 'degraded',
      reasons: [
        'enquiry.email: oldest pending job is 1200 s overdue (alert after 900 s)',
        'enquiry.email: 1 job failed',
        'enquiry.webhook: oldest pending job is 901 s overdue (alert after 900 s)',
        'enquiry.webhook: 3 jobs failed',
      ],
    });
  });
});

describe('alarmTransition', () => {
  const ok = { status: 'ok' as const, reasons: [] };
  const degraded = { status: 'degraded' as const, reasons: ['enquiry.email: 1 job failed'] };

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
