import { describe, expect, it } from 'vitest';
import { formatTime, groupByDay } from './display';
import { parseWeeklyHours } from './hours';
import { offerDays } from './offer';
import { computeSlots, type DemoRules, type HostCalendar, type Interval } from './slots';

const rules: DemoRules = {
  timeZone: 'Asia/Kolkata',
  hours: parseWeeklyHours('Mon-Fri 10:00-13:00 14:00-18:00; Sat 10:00-13:00'),
  slotMinutes: 45,
  bufferMinutes: 15,
  noticeHours: 12,
  maxPerDay: 4,
  closedDates: [],
  bookingDays: 3,
};

/** Thursday 5 March 2026, 05:30 in Kolkata: with 12 h notice Thursday offers nothing. */
const now = Date.parse('2026-03-05T00:00:00Z');
/** An instant from a Kolkata wall time (IST is UTC+05:30 all year). */
const ist = (local: string) => Date.parse(`${local}:00+05:30`);
const span = (from: string, to: string): Interval => ({ start: ist(from), end: ist(to) });
const host = (
  email: string,
  busy: Interval[] | null = [],
  bookings: Interval[] = [],
): HostCalendar => ({ email, busy, bookings });
/** Offered slots as `YYYY-MM-DDTHH:MM hostA+hostB` in Kolkata time. */
const offered = (r: DemoRules, hosts: HostCalendar[], at = now) =>
  computeSlots(r, hosts, at).map((slot) => {
    const local = new Date(slot.start + 330 * 60_000).toISOString().slice(0, 16);
    return `${local} ${slot.hosts.join('+')}`;
  });
const friday = (times: string[], hosts = 'a') => times.map((time) => `2026-03-06T${time} ${hosts}`);

describe('computeSlots (availability)', () => {
  const cases: {
    name: string;
    rules?: Partial<DemoRules>;
    hosts: HostCalendar[];
    at?: number;
    expected: string[];
  }[] = [
    {
      name: 'weekly hours: Friday two windows, Saturday one, each slot + buffer apart',
      hosts: [host('a')],
      expected: [
        ...friday(['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00']),
        ...['10:00', '11:00', '12:00'].map((time) => `2026-03-07T${time} a`),
      ],
    },
    {
      name: 'buffer: a busy 11:50-12:10 also takes the 11:00 slot',
      rules: { bookingDays: 2 },
      hosts: [host('a', [span('2026-03-06T11:50', '2026-03-06T12:10')])],
      expected: friday(['10:00', '14:00', '15:00', '16:00', '17:00']),
    },
    {
      name: 'no buffer: slots 45 min apart, the same busy takes only the 11:30 slot',
      rules: { bookingDays: 2, bufferMinutes: 0 },
      hosts: [host('a', [span('2026-03-06T11:50', '2026-03-06T12:10')])],
      expected: friday(['10:00', '10:45', '12:15', '14:00', '14:45', '15:30', '16:15', '17:00']),
    },
    {
      name: 'notice: at Friday 10:30 with 0 h notice the day starts at 11:00',
      rules: { bookingDays: 1, noticeHours: 0 },
      hosts: [host('a')],
      at: ist('2026-03-06T10:30'),
      expected: friday(['11:00', '12:00', '14:00', '15:00', '16:00', '17:00']),
    },
    {
      name: 'per-day maximum: two demos on Friday with a maximum of 2 close the day',
      rules: { maxPerDay: 2 },
      hosts: [
        host(
          'a',
          [],
          [
            span('2026-03-06T10:00', '2026-03-06T10:45'),
            span('2026-03-06T16:00', '2026-03-06T16:45'),
          ],
        ),
      ],
      expected: ['10:00', '11:00', '12:00'].map((time) => `2026-03-07T${time} a`),
    },
    {
      name: 'bookings block their slot (and the buffer around it)',
      rules: { bookingDays: 2 },
      hosts: [host('a', [], [span('2026-03-06T11:00', '2026-03-06T11:45')])],
      expected: friday(['10:00', '12:00', '14:00', '15:00', '16:00', '17:00']),
    },
    {
      name: 'closed dates: nothing on 6 March',
      rules: { closedDates: ['2026-03-06'] },
      hosts: [host('a')],
      expected: ['10:00', '11:00', '12:00'].map((time) => `2026-03-07T${time} a`),
    },
    {
      name: 'two hosts with overlapping busy times: a slot is offered while one of them is free',
      rules: { bookingDays: 2 },
      hosts: [
        host('a', [span('2026-03-06T10:00', '2026-03-06T12:00')]),
        host('b', [span('2026-03-06T11:00', '2026-03-06T13:00')]),
      ],
      expected: ['2026-03-06T10:00 b', ...friday(['14:00', '15:00', '16:00', '17:00'], 'a+b')],
    },
    {
      name: 'a host whose busy times are unknown offers nothing',
      hosts: [host('a', null)],
      expected: [],
    },
  ];

  it.each(cases)('$name', ({ rules: overrides, hosts, at, expected }) => {
    expect(offered({ ...rules, ...overrides }, hosts, at)).toEqual(expected);
  });

  it('keeps the provider’s wall-clock hours across its DST change (Europe/London, 29 March 2026)', () => {
    const london = {
      ...rules,
      timeZone: 'Europe/London',
      hours: parseWeeklyHours('Mon-Fri 10:00-11:00'),
      bookingDays: 5,
      noticeHours: 0,
    };
    const starts = computeSlots(london, [host('a')], Date.parse('2026-03-26T12:00:00Z')).map(
      (slot) => new Date(slot.start).toISOString(),
    );
    expect(starts).toEqual(['2026-03-27T10:00:00.000Z', '2026-03-30T09:00:00.000Z']);
  });
});

describe('slots in the visitor’s zone (confirmation and picker)', () => {
  // 10:00 IST on Friday 6 March (before US DST), Monday 9 March (after it) and Monday 30 March (after UK DST).
  const slots = ['2026-03-06T10:00', '2026-03-09T10:00', '2026-03-30T10:00'].map((local) => ({
    start: ist(local),
    end: ist(local) + 45 * 60_000,
    hosts: ['a'],
  }));
  const view = (zone: string) =>
    groupByDay(slots, zone).map(
      (day) => `${day.date}: ${day.slots.map((slot) => formatTime(slot.start, zone)).join(', ')}`,
    );

  it.each([
    {
      zone: 'Asia/Kolkata',
      expected: ['2026-03-06: 10:00 IST', '2026-03-09: 10:00 IST', '2026-03-30: 10:00 IST'],
    },
    {
      zone: 'Europe/London',
      expected: ['2026-03-06: 04:30 GMT', '2026-03-09: 04:30 GMT', '2026-03-30: 05:30 BST'],
    },
    {
      zone: 'America/New_York',
      expected: ['2026-03-05: 23:30 EST', '2026-03-09: 00:30 EDT', '2026-03-30: 00:30 EDT'],
    },
  ])('$zone', ({ zone, expected }) => {
    expect(view(zone)).toEqual(expected);
  });
});

describe('parseWeeklyHours (DEMO_HOURS)', () => {
  it('reads days, ranges and windows', () => {
    const week = parseWeeklyHours('Mon-Fri 10:00-13:00 14:00-18:00; Sat 10:00-13:00');
    expect(week[1]).toEqual([
      { start: 600, end: 780 },
      { start: 840, end: 1080 },
    ]);
    expect(week[6]).toEqual([{ start: 600, end: 780 }]);
    expect(week[0]).toEqual([]);
    expect(parseWeeklyHours('Sat-Mon 09:00-24:00')[0]).toEqual([{ start: 540, end: 1440 }]);
  });

  it.each([
    ['', /no hours/],
    ['Mon', /names no time window/],
    ['Moon 10:00-11:00', /unknown day "Moon"/],
    ['Mon 10-11', /bad time window "10-11"/],
    ['Mon 12:00-11:00', /must end after it starts/],
    ['Mon 10:00-12:00 11:00-13:00', /overlapping windows on mon/],
  ])('refuses %j', (text, message) => {
    expect(() => parseWeeklyHours(text)).toThrow(message);
  });
});

describe('offerDays (the booking form’s days and times)', () => {
  it('labels each day and time in the provider’s zone and keeps the instants as ISO strings', () => {
    const slots = computeSlots({ ...rules, bookingDays: 2 }, [host('a')], now).slice(0, 2);
    expect(offerDays(slots, 'Asia/Kolkata')).toEqual([
      {
        date: '2026-03-06',
        label: 'Friday, 6 March 2026',
        times: [
          { start: '2026-03-06T04:30:00.000Z', label: '10:00 IST' },
          { start: '2026-03-06T05:30:00.000Z', label: '11:00 IST' },
        ],
      },
    ]);
  });
});
