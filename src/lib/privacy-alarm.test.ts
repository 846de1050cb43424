import { describe, expect, it } from 'vitest';
import { alarmTransition } from './delivery-alarm';
import {
  assessPrivacy,
  combineAssessments,
  dueState,
  privacyAlarmEvents,
  summarizePrivacy,
} from './privacy-alarm';

const now = new Date('2026-03-05T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);

describe('dueState', () => {
  it.each([
    [-30, 'overdue'],
    [0, 'overdue'],
    [0.001, 'due-soon'],
    [5, 'due-soon'],
    [7, 'due-soon'],
    [7.001, 'later'],
    [30, 'later'],
  ] as const)('a request due in %s days is %s (alert at 7 days)', (days, state) => {
    expect(dueState(inDays(days), now, 7)).toBe(state);
  });
});

describe('summarizePrivacy and assessPrivacy', () => {
  it('is ok with nothing open, or only requests due later', () => {
    expect(summarizePrivacy([], now, 7)).toEqual({
      open: 0,
      dueSoon: 0,
      overdue: 0,
      oldestDueAt: null,
    });
    const later = summarizePrivacy([inDays(30), inDays(8)], now, 7);
    expect(later).toEqual({
      open: 2,
      dueSoon: 0,
      overdue: 0,
      oldestDueAt: inDays(8).toISOString(),
    });
    expect(assessPrivacy(later, 7)).toEqual({ status: 'ok', reasons: [] });
  });

  it('is degraded with a reason per state while one is due soon or overdue', () => {
    const summary = summarizePrivacy([inDays(30), inDays(5), inDays(-2), inDays(6)], now, 7);
    expect(summary).toEqual({
      open: 4,
      dueSoon: 2,
      overdue: 1,
      oldestDueAt: inDays(-2).toISOString(),
    });
    expect(assessPrivacy(summary, 7)).toEqual({
      status: 'degraded',
      reasons: [
        `privacy: 1 privacy request overdue (due since ${inDays(-2).toISOString()})`,
        'privacy: 2 privacy requests due within 7 days',
      ],
    });
  });

  it('combines with the delivery verdict and logs one start and one end', () => {
    const ok = { status: 'ok' as const, reasons: [] };
    const due = assessPrivacy(summarizePrivacy([inDays(1)], now, 7), 7);
    expect(combineAssessments(ok, ok)).toEqual(ok);
    expect(
      combineAssessments({ status: 'degraded', reasons: ['enquiry.email: 1 job failed'] }, due),
    ).toEqual({
      status: 'degraded',
      reasons: ['enquiry.email: 1 job failed', 'privacy: 1 privacy request due within 7 days'],
    });
    let on = false;
    const events: string[] = [];
    for (const assessment of [ok, due, due, ok, ok]) {
      const event = alarmTransition(on, assessment, privacyAlarmEvents);
      if (event) events.push(event);
      on = assessment.status === 'degraded';
    }
    expect(events).toEqual(['privacy.due_soon', 'privacy.due_cleared']);
  });
});
