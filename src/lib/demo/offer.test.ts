import { describe, expect, it } from 'vitest';
import { offerDays, visitorDays } from './offer';

/** An instant from a Kolkata wall time (IST is UTC+05:30 all year). */
const ist = (local: string) => Date.parse(`${local}:00+05:30`);

/** Three offered times in IST: Friday 6 March before US DST (8 March 2026), Monday 9 March after it. */
const offer = {
  timeZone: 'Asia/Kolkata',
  days: offerDays(
    ['2026-03-06T10:00', '2026-03-06T11:00', '2026-03-09T10:00'].map((local) => ({
      start: ist(local),
    })),
    'Asia/Kolkata',
  ),
};
/** A visitor's view as `date label: time, time`. */
const view = (zone: string) =>
  visitorDays(offer, zone).map(
    (day) => `${day.date} ${day.label}: ${day.times.map((time) => time.label).join(', ')}`,
  );

describe('visitorDays (the picker’s days and times in the visitor’s zone)', () => {
  it.each([
    {
      zone: 'America/New_York',
      expected: [
        '2026-03-05 Thursday, 5 March 2026: 23:30 EST (10:00 IST)',
        '2026-03-06 Friday, 6 March 2026: 00:30 EST (11:00 IST)',
        '2026-03-09 Monday, 9 March 2026: 00:30 EDT (10:00 IST)',
      ],
    },
    {
      zone: 'Europe/London',
      expected: [
        '2026-03-06 Friday, 6 March 2026: 04:30 GMT (10:00 IST), 05:30 GMT (11:00 IST)',
        '2026-03-09 Monday, 9 March 2026: 04:30 GMT (10:00 IST)',
      ],
    },
    {
      zone: 'Asia/Kolkata',
      expected: [
        '2026-03-06 Friday, 6 March 2026: 10:00 IST, 11:00 IST',
        '2026-03-09 Monday, 9 March 2026: 10:00 IST',
      ],
    },
    {
      zone: 'Asia/Dubai',
      expected: [
        '2026-03-06 Friday, 6 March 2026: 08:30 GST (10:00 IST), 09:30 GST (11:00 IST)',
        '2026-03-09 Monday, 9 March 2026: 08:30 GST (10:00 IST)',
      ],
    },
  ])('$zone', ({ zone, expected }) => {
    expect(view(zone)).toEqual(expected);
  });

  it('keeps the offer’s instants, so the booking action receives the same values', () => {
    const starts = (days: typeof offer.days) =>
      days.flatMap((day) => day.times.map((time) => time.start));
    expect(starts(visitorDays(offer, 'America/New_York'))).toEqual(starts(offer.days));
  });
});
