import { TZDate } from '@date-fns/tz';
import * as ical from 'node-ical';
import { isTimeZone } from './display';
import type { Interval } from './slots';

/**
 * A host's busy times from the text of one of their iCalendar feeds (the secret address Google
 * Calendar and Microsoft 365 publish). Pure: parsing and recurrence expansion by
 * `node-ical`, no I/O (src/server/demos/feeds.ts fetches the feeds).
 */

const day = 24 * 60 * 60_000;

/**
 * How far outside the window recurring events are expanded (ms): an instance moved
 * (RECURRENCE-ID) into the window from up to a month away is still seen.
 */
const MOVED_INSTANCE_REACH = 31 * day;

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
 * The busy intervals (ms since the epoch, sorted by start) of the iCalendar text `ics` that overlap
 * `window`: every VEVENT, recurring ones expanded (RRULE, minus EXDATE, with instances moved or
 * changed by RECURRENCE-ID), except those marked free (`TRANSP:TRANSPARENT`) or cancelled
 * (`STATUS:CANCELLED`, also a single cancelled instance). All-day events take their whole days in
 * the calendar's own zone (`X-WR-TIMEZONE`), else in `timeZone` (the provider's, `DEMO_TIMEZONE`).
 * @throws Error when `ics` is not an iCalendar (no VCALENDAR, e.g. an HTML login page) or an event
 * has no valid start: such a feed must not count as a calendar without busy times.
 */
export function busyIntervals(ics: string, window: Interval, timeZone: string): Interval[] {
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
    for (const instance of ical.expandRecurringEvent(component, range)) {
      const { transparency, status } = instance.event;
      if (transparency === 'TRANSPARENT' || status === 'CANCELLED') continue;
      const interval = instance.isFullDay
        ? allDay(instance.start, instance.end, allDayZone)
        : { start: instance.start.getTime(), end: instance.end.getTime() };
      if (interval.start < window.end && window.start < interval.end) busy.push(interval);
    }
  }
  return busy.sort((a, b) => a.start - b.start);
}
