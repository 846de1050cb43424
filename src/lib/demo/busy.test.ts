import { describe, expect, it } from 'vitest';
import { busyIntervals, mergeIntervals, TooManyInstancesError } from './busy';
import { parseWeeklyHours } from './hours';
import { computeSlots, type DemoRules, type HostCalendar } from './slots';

/** An iCalendar feed of `events` (each the lines between BEGIN:VEVENT and END:VEVENT), CRLF as sent. */
const feed = (events: string[][], header: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nirmaya tests//EN',
    ...header,
    ...events.flatMap((lines, index) => [
      'BEGIN:VEVENT',
      ...(lines.some((line) => line.startsWith('UID:')) ? [] : [`UID:event-${index}@test`]),
      'DTSTAMP:20260101T000000Z',
      ...lines,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/**
 * Mondays 10:00-11:00 in Kolkata from 2 March 2026; not on 9 March (EXDATE); the 16 March one moved
 * to Tuesday 17 March 10:00 and the 23 March one to Friday 20 March 15:00 (RECURRENCE-ID).
 */
const weeklyWithExceptions = [
  [
    'UID:weekly@test',
    'DTSTART;TZID=Asia/Kolkata:20260302T100000',
    'DTEND;TZID=Asia/Kolkata:20260302T110000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO',
    'EXDATE;TZID=Asia/Kolkata:20260309T100000',
    'SUMMARY:Pipeline review',
  ],
  [
    'UID:weekly@test',
    'RECURRENCE-ID;TZID=Asia/Kolkata:20260316T100000',
    'DTSTART;TZID=Asia/Kolkata:20260317T100000',
    'DTEND;TZID=Asia/Kolkata:20260317T110000',
    'SUMMARY:Pipeline review (moved)',
  ],
  [
    'UID:weekly@test',
    'RECURRENCE-ID;TZID=Asia/Kolkata:20260323T100000',
    'DTSTART;TZID=Asia/Kolkata:20260320T150000',
    'DTEND;TZID=Asia/Kolkata:20260320T160000',
    'SUMMARY:Pipeline review (moved a week ahead)',
  ],
];

/** Sunday 1 March to Saturday 21 March 2026, 00:00 UTC. */
const window = {
  start: Date.parse('2026-03-01T00:00:00Z'),
  end: Date.parse('2026-03-21T00:00:00Z'),
};
const iso = (at: number) => new Date(at).toISOString().replace(':00.000Z', 'Z');
/** Busy intervals of a feed as `start/end` in UTC, minutes precision. */
const busyOf = (ics: string, timeZone = 'Asia/Kolkata') =>
  busyIntervals(ics, window, timeZone).map(({ start, end }) => `${iso(start)}/${iso(end)}`);

describe('busyIntervals (busy times from iCalendar feeds)', () => {
  it.each([
    {
      name: 'a weekly event with one EXDATE and instances moved by RECURRENCE-ID (one from beyond the window)',
      ics: feed(weeklyWithExceptions),
      expected: [
        '2026-03-02T04:30Z/2026-03-02T05:30Z',
        '2026-03-17T04:30Z/2026-03-17T05:30Z',
        '2026-03-20T09:30Z/2026-03-20T10:30Z',
      ],
    },
    {
      name: 'a weekly event in New York keeps 09:00 local across the US DST change (8 March)',
      ics: feed([
        [
          'DTSTART;TZID=America/New_York:20260302T090000',
          'DTEND;TZID=America/New_York:20260302T100000',
          'RRULE:FREQ=WEEKLY;COUNT=3',
        ],
      ]),
      expected: [
        '2026-03-02T14:00Z/2026-03-02T15:00Z',
        '2026-03-09T13:00Z/2026-03-09T14:00Z',
        '2026-03-16T13:00Z/2026-03-16T14:00Z',
      ],
    },
    {
      name: 'an all-day event takes its whole day in the provider’s zone',
      ics: feed([['DTSTART;VALUE=DATE:20260306', 'DTEND;VALUE=DATE:20260307']]),
      expected: ['2026-03-05T18:30Z/2026-03-06T18:30Z'],
    },
    {
      name: 'an all-day event of a calendar naming its zone (X-WR-TIMEZONE) takes its day there',
      ics: feed(
        [['DTSTART;VALUE=DATE:20260306', 'DTEND;VALUE=DATE:20260308']],
        ['X-WR-TIMEZONE:Europe/London'],
      ),
      expected: ['2026-03-06T00:00Z/2026-03-08T00:00Z'],
    },
    {
      name: 'a two-day event across a DST change (New York, 7-8 March) ends at midnight local time',
      ics: feed(
        [['DTSTART;VALUE=DATE:20260307', 'DTEND;VALUE=DATE:20260309']],
        ['X-WR-TIMEZONE:America/New_York'],
      ),
      expected: ['2026-03-07T05:00Z/2026-03-09T04:00Z'],
    },
    {
      name: 'free (TRANSP:TRANSPARENT) and cancelled (STATUS:CANCELLED) events are not busy',
      ics: feed([
        ['DTSTART:20260306T050000Z', 'DTEND:20260306T060000Z', 'TRANSP:TRANSPARENT'],
        ['DTSTART:20260306T070000Z', 'DTEND:20260306T080000Z', 'STATUS:CANCELLED'],
        ['DTSTART:20260306T090000Z', 'DTEND:20260306T100000Z', 'TRANSP:OPAQUE'],
      ]),
      expected: ['2026-03-06T09:00Z/2026-03-06T10:00Z'],
    },
    {
      name: 'one cancelled instance of a daily series is not busy',
      ics: feed([
        [
          'UID:daily@test',
          'DTSTART:20260305T050000Z',
          'DTEND:20260305T060000Z',
          'RRULE:FREQ=DAILY;COUNT=3',
        ],
        [
          'UID:daily@test',
          'RECURRENCE-ID:20260306T050000Z',
          'DTSTART:20260306T050000Z',
          'DTEND:20260306T060000Z',
          'STATUS:CANCELLED',
        ],
      ]),
      expected: ['2026-03-05T05:00Z/2026-03-05T06:00Z', '2026-03-07T05:00Z/2026-03-07T06:00Z'],
    },
    {
      name: 'only what overlaps the window: an event ongoing at its start, none after its end',
      ics: feed([
        ['DTSTART:20260227T000000Z', 'DTEND:20260302T000000Z'],
        ['DTSTART:20260225T000000Z', 'DTEND:20260226T000000Z'],
        ['DTSTART:20260325T000000Z', 'DTEND:20260326T000000Z'],
      ]),
      expected: ['2026-02-27T00:00Z/2026-03-02T00:00Z'],
    },
  ])('$name', ({ ics, expected }) => {
    expect(busyOf(ics)).toEqual(expected);
  });

  it.each([
    [
      'an HTML page (a login form answered with 200)',
      '<!doctype html><html><body>Sign in</body></html>',
    ],
    ['an event without a valid start', feed([['DTSTART:tomorrow', 'DTEND:20260306T060000Z']])],
  ])('refuses %s', (_name, text) => {
    expect(() => busyIntervals(text, window, 'Asia/Kolkata')).toThrow();
  });
});

describe('busyIntervals: caps and merging', () => {
  it('merges overlapping and touching events into one interval', () => {
    const ics = feed([
      ['DTSTART:20260306T050000Z', 'DTEND:20260306T070000Z'],
      ['DTSTART:20260306T060000Z', 'DTEND:20260306T063000Z'],
      ['DTSTART:20260306T070000Z', 'DTEND:20260306T080000Z'],
      ['DTSTART:20260306T090000Z', 'DTEND:20260306T100000Z'],
    ]);
    expect(busyOf(ics)).toEqual([
      '2026-03-06T05:00Z/2026-03-06T08:00Z',
      '2026-03-06T09:00Z/2026-03-06T10:00Z',
    ]);
  });

  it.each([
    {
      name: 'an unbounded FREQ=MINUTELY invitation (past the recurrence engine’s iteration limit)',
      lines: ['DTSTART:20260301T000000Z', 'DTEND:20260301T000030Z', 'RRULE:FREQ=MINUTELY'],
      maxInstances: 5_000,
    },
    {
      name: 'an hourly rule with 480 instances in the window (cap 400)',
      lines: ['DTSTART:20260301T000000Z', 'DTEND:20260301T000500Z', 'RRULE:FREQ=HOURLY;COUNT=600'],
      maxInstances: 400,
    },
  ])('refuses a feed over its instance cap: $name', ({ lines, maxInstances }) => {
    const started = performance.now();
    expect(() => busyIntervals(feed([lines]), window, 'Asia/Kolkata', maxInstances)).toThrow(
      TooManyInstancesError,
    );
    console.log(`over the cap after ${Math.round(performance.now() - started)} ms`);
  });

  it('keeps a feed at its cap: 20 daily instances with a cap of 20', () => {
    const ics = feed([
      ['DTSTART:20260301T050000Z', 'DTEND:20260301T060000Z', 'RRULE:FREQ=DAILY;COUNT=40'],
    ]);
    expect(busyIntervals(ics, window, 'Asia/Kolkata', 20)).toHaveLength(20);
    expect(() => busyIntervals(ics, window, 'Asia/Kolkata', 19)).toThrow(TooManyInstancesError);
  });
});

describe('mergeIntervals', () => {
  it.each([
    { name: 'nothing', lists: [], expected: [] },
    { name: 'one empty list', lists: [[]], expected: [] },
    {
      name: 'two feeds interleaved, one interval inside another, touching ends joined',
      lists: [
        [
          { start: 0, end: 10 },
          { start: 30, end: 40 },
        ],
        [
          { start: 2, end: 5 },
          { start: 10, end: 12 },
          { start: 50, end: 60 },
        ],
      ],
      expected: [
        { start: 0, end: 12 },
        { start: 30, end: 40 },
        { start: 50, end: 60 },
      ],
    },
  ])('$name', ({ lists, expected }) => {
    expect(mergeIntervals(lists)).toEqual(expected);
  });

  it('takes 200,000 intervals (more than a spread into arguments survives) without a RangeError', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => ({ start: i * 10, end: i * 10 + 5 }));
    const merged = mergeIntervals([many, [{ start: 0, end: 2_000_000 }]]);
    expect(merged).toEqual([{ start: 0, end: 2_000_000 }]);
    expect(mergeIntervals([many])).toHaveLength(200_000);
  });

  it('leaves its inputs as they were', () => {
    const a = [{ start: 5, end: 10 }];
    const b = [{ start: 0, end: 6 }];
    mergeIntervals([a, b]);
    expect([a, b]).toEqual([[{ start: 5, end: 10 }], [{ start: 0, end: 6 }]]);
  });
});

describe('computeSlots with busy times from feeds (availability)', () => {
  const rules: DemoRules = {
    timeZone: 'Asia/Kolkata',
    hours: parseWeeklyHours('Mon-Fri 10:00-11:00'),
    slotMinutes: 45,
    bufferMinutes: 15,
    noticeHours: 12,
    maxPerDay: 4,
    closedDates: [],
    bookingDays: 14,
  };
  /** Thursday 5 March 2026, 05:30 in Kolkata: offered are the weekdays 6 to 18 March at 10:00 IST. */
  const now = Date.parse('2026-03-05T00:00:00Z');
  const host = (email: string, ics: string): HostCalendar => ({
    email,
    busy: busyIntervals(
      ics,
      { start: now - 86_400_000, end: now + 15 * 86_400_000 },
      rules.timeZone,
    ),
    bookings: [],
  });
  const offered = (hosts: HostCalendar[]) =>
    computeSlots(rules, hosts, now).map((slot) => {
      const local = new Date(slot.start + 330 * 60_000).toISOString().slice(0, 16);
      return `${local} ${slot.hosts.join('+')}`;
    });

  it.each([
    {
      name: 'a weekly busy Monday with an exception (9 March) and a moved instance (16 → 17 March)',
      hosts: [host('a', feed(weeklyWithExceptions))],
      expected: ['06', '09', '10', '11', '12', '13', '16', '18'].map(
        (day) => `2026-03-${day}T10:00 a`,
      ),
    },
    {
      name: 'two hosts: the slot goes to the free one (a all-day busy on 12 March, b busy 17 March, a transparent event frees nobody)',
      hosts: [
        host(
          'a',
          feed([
            ['DTSTART;VALUE=DATE:20260312', 'DTEND;VALUE=DATE:20260313'],
            ['DTSTART:20260313T043000Z', 'DTEND:20260313T053000Z', 'TRANSP:TRANSPARENT'],
          ]),
        ),
        host('b', feed(weeklyWithExceptions)),
      ],
      expected: [
        ...['06', '09', '10', '11'].map((day) => `2026-03-${day}T10:00 a+b`),
        '2026-03-12T10:00 b',
        ...['13', '16'].map((day) => `2026-03-${day}T10:00 a+b`),
        '2026-03-17T10:00 a',
        '2026-03-18T10:00 a+b',
      ],
    },
  ])('$name', ({ hosts, expected }) => {
    expect(offered(hosts)).toEqual(expected);
  });
});
