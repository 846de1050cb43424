import { TZDate } from '@date-fns/tz';
import type { WeeklyHours } from './hours';

/**
 * Free demo times: a pure function of the availability rules, each host's busy
 * times and bookings, and the clock. All instants are ms since the epoch (UTC); hours, closed dates
 * and the per-day maximum are read in the provider's zone (`timeZone`), across DST changes.
 */

/** A half-open interval [start, end) in ms since the epoch. */
export type Interval = { start: number; end: number };

/** The availability rules, from the `DEMO_*` variables. */
export type DemoRules = {
  /** IANA zone of the hours and closed dates (`DEMO_TIMEZONE`), e.g. `Asia/Kolkata`. */
  timeZone: string;
  hours: WeeklyHours;
  /** Length of a demo in minutes (`DEMO_SLOT_MINUTES`). */
  slotMinutes: number;
  /** Free minutes a host keeps before and after a demo (`DEMO_BUFFER_MINUTES`). */
  bufferMinutes: number;
  /** Least time from now to a demo's start, in hours (`DEMO_NOTICE_HOURS`). */
  noticeHours: number;
  /** Most demos a host gives on one local day (`DEMO_MAX_PER_DAY`). */
  maxPerDay: number;
  /** Local dates without demos, `YYYY-MM-DD` (`DEMO_CLOSED_DATES`). */
  closedDates: readonly string[];
  /** How many local days, today included, are offered (`DEMO_BOOKING_DAYS`). */
  bookingDays: number;
};

/**
 * What is known of one host: `busy` from their calendar feeds, or `null` when it is not known
 * (a feed that never answered or is too old), and then the host offers nothing; `bookings` are
 * their live demos.
 */
export type HostCalendar = {
  email: string;
  busy: readonly Interval[] | null;
  bookings: readonly Interval[];
};

/** An offered time and the hosts free for it, in the order they were given. */
export type Slot = Interval & { hosts: string[] };

const minute = 60_000;

/** `YYYY-MM-DD` of an instant in `timeZone`. */
export function localDate(at: number, timeZone: string): string {
  const date = new TZDate(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** The slot grid of the offered days: each window from its start, every slot + buffer minutes. */
function candidateTimes(rules: DemoRules, now: number): Interval[] {
  const today = new TZDate(now, rules.timeZone);
  const times: Interval[] = [];
  const step = rules.slotMinutes + rules.bufferMinutes;
  for (let offset = 0; offset < rules.bookingDays; offset++) {
    const day = new TZDate(
      today.getFullYear(),
      today.getMonth(),
      today.getDate() + offset,
      rules.timeZone,
    );
    if (rules.closedDates.includes(localDate(day.getTime(), rules.timeZone))) continue;
    for (const window of rules.hours[day.getDay()] ?? []) {
      for (let from = window.start; from + rules.slotMinutes <= window.end; from += step) {
        const start = new TZDate(
          day.getFullYear(),
          day.getMonth(),
          day.getDate(),
          Math.floor(from / 60),
          from % 60,
          rules.timeZone,
        ).getTime();
        times.push({ start, end: start + rules.slotMinutes * minute });
      }
    }
  }
  return times;
}

/** Whether `host` can give a demo at `time`: known calendar, clear with buffer, under the day's maximum. */
function isFree(host: HostCalendar, time: Interval, rules: DemoRules): boolean {
  if (host.busy === null) return false;
  const buffer = rules.bufferMinutes * minute;
  const padded = { start: time.start - buffer, end: time.end + buffer };
  if (host.busy.some((busy) => overlaps(busy, padded))) return false;
  if (host.bookings.some((booking) => overlaps(booking, padded))) return false;
  const day = localDate(time.start, rules.timeZone);
  const sameDay = host.bookings.filter(
    (booking) => localDate(booking.start, rules.timeZone) === day,
  );
  return sameDay.length < rules.maxPerDay;
}

/**
 * The times offered at `now` (ms): every slot of the weekly hours on the next `bookingDays` local
 * days, not on a closed date, starting at least `noticeHours` from now, for which at least one host
 * is free (see HostCalendar). Sorted by start; each lists its free hosts in the order of `hosts`.
 */
export function computeSlots(
  rules: DemoRules,
  hosts: readonly HostCalendar[],
  now: number,
): Slot[] {
  const earliest = now + rules.noticeHours * 60 * minute;
  return candidateTimes(rules, now)
    .filter((time) => time.start >= earliest)
    .map((time) => ({
      ...time,
      hosts: hosts.filter((host) => isFree(host, time, rules)).map((host) => host.email),
    }))
    .filter((slot) => slot.hosts.length > 0);
}
