import { TZDate } from '@date-fns/tz';
import * as ical from 'node-ical';
import { isTimeZone } from './display';
import type { Interval } from './slots';

/**
 * A host's busy times from the text of one of their iCalendar feeds (the secret address Google
 * Calendar and Microsoft 365 publish). Pure: parsing and recurrence expansion by
 * `node-ical`, no I/O (src/server/features/demos/feeds.ts fetches the feeds).
 */

const day = 24 * 60 * 60_000;

/**
 * How far outside the window recurring events are expanded (ms): an instance moved
 * (RECURRENCE-ID) into the window from up to a month away is still seen.
 */
const MOVED_INSTANCE_REACH = 31 * day;

/** Most busy instances one feed may have in a window (`busyIntervals`' default `maxInstances`). */
export const MAX_FEED_INSTANCES = 5_000;

/**
 * A feed with more instances than a calendar of people has (e.g. an invitation with
 * `RRULE:FREQ=MINUTELY` sent to a host to flood their feed): refused whole, never cut short, so that a
 * host is never shown free in a time the cut left out.
 */
export class TooManyInstancesError extends Error {
  constructor(readonly maxInstances: number) {
    super(`more than ${maxInstances} busy instances in the window`);
    this.name = 'TooManyInstancesError';
  }
}

/**
 * rrule-temporal (node-ical's recurrence engine) gives up on a rule that needs more than its
 * iteration limit (10,000) to reach the end of the range, with a plain Error of this message.
 */
const RRULE_ITERATION_LIMIT = /^Maximum iterations \(\d+\) exceeded/;

/**
 * `lists` of intervals as one list sorted by start in which overlapping or touching intervals are
 * merged into one (ms since the epoch). Linear in the total length after the sort; copies by loop,
 * never by spreading into arguments, so that any number of intervals is fine.
 */
export function mergeIntervals(lists: readonly (readonly Interval[])[]): Interval[] {
  const all: Interval[] = [];
  for (const list of lists) for (const interval of list) all.push(interval);
  all.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const { start, end } of all) {
    const last = merged.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}

/**
 * An all-day instance as the whole days it covers in `timeZone`. node-ical gives its start as the
 * process-local midnight of its date and its end as start + whole days in ms, so the day count is
 * rounded (a DST change in the process's zone moves the end by an hour).
 */
function allDay(start: Date, end: Date, timeZone: string): Interval {
  const days = Math.max(1, Math.round((end.getTime() - start.getTime()) / day));
  const midnight = (offset: number) =>
    new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + offset, timeZone).getTime();
  return { start: midnight(0), end: midnight(days) };
}

/**
 * The busy intervals (ms since the epoch, sorted by start, overlapping ones merged) of the
 * iCalendar text `ics` that overlap `window`: every VEVENT, recurring ones expanded (RRULE, minus EXDATE, with instances moved or
 * changed by RECURRENCE-ID), except those marked free (`TRANSP:TRANSPARENT`) or cancelled
 * (`STATUS:CANCELLED`, also a single cancelled instance). All-day events take their whole days in
 * the calendar's own zone (`X-WR-TIMEZONE`), else in `timeZone` (the provider's, `DEMO_TIMEZONE`).
 * Synchronous and CPU-bound (a hostile feed can take seconds): the server calls it in a worker
 * thread (src/server/features/demos/feed-worker.ts), never on its event loop.
 * @param maxInstances most instances overlapping the window, all events together (default
 * MAX_FEED_INSTANCES)
 * @throws TooManyInstancesError when the feed has more than `maxInstances` instances in the window,
 * or a rule needs more iterations than the recurrence engine allows.
 * @throws Error when `ics` is not an iCalendar (no VCALENDAR, e.g. an HTML login page) or an event
 * has no valid start: such a feed must not count as a calendar without busy times.
 */
export function busyIntervals(
  ics: string,
  window: Interval,
  timeZone: string,
  maxInstances: number = MAX_FEED_INSTANCES,
): Interval[] {
  const calendar = ical.sync.parseICS(ics);
  if (!calendar.vcalendar) throw new Error('not an iCalendar feed (no VCALENDAR)');
  const calendarZone = calendar.vcalendar['WR-TIMEZONE'];
  const allDayZone = isTimeZone(calendarZone) ? calendarZone : timeZone;
  const range = {
    from: new Date(window.start - MOVED_INSTANCE_REACH),
    to: new Date(window.end + MOVED_INSTANCE_REACH),
    expandOngoing: true,
  };
  const busy: Interval[] = [];
  for (const component of Object.values(calendar)) {
    // Moved instances (RECURRENCE-ID) are found through their series' `recurrences`.
    if (component?.type !== 'VEVENT' || component.recurrenceid) continue;
    if (Number.isNaN(new Date(component.start).getTime()))
      throw new Error('an event has no valid start');
    let instances: ReturnType<typeof ical.expandRecurringEvent>;
    try {
      instances = ical.expandRecurringEvent(component, range);
    } catch (error) {
      if (error instanceof Error && RRULE_ITERATION_LIMIT.test(error.message))
        throw new TooManyInstancesError(maxInstances);
      throw error;
    }
    for (const instance of instances) {
      const { transparency, status } = instance.event;
      if (transparency === 'TRANSPARENT' || status === 'CANCELLED') continue;
      const interval = instance.isFullDay
        ? allDay(instance.start, instance.end, allDayZone)
        : { start: instance.start.getTime(), end: instance.end.getTime() };
      if (interval.start < window.end && window.start < interval.end) {
        busy.push(interval);
        if (busy.length > maxInstances) throw new TooManyInstancesError(maxInstances);
      }
    }
  }
  return mergeIntervals([busy]);
}
