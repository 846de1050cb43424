import 'server-only';
import { and, gte, lt } from 'drizzle-orm';
import type { HostCalendar } from '@/lib/demo/slots';
import type { Db } from '../../platform/db';
import { demoBookings } from './schema';
import { processFeeds } from './feeds';
import { sameHost } from './bookings';
import { liveAt } from './holds';
import type { BookingSettings } from './types';

/** What each host has on: the input of the slot arithmetic, and who gets the next demo. */

const day = 24 * 60 * 60_000;

/**
 * Each host's calendar for computeSlots at `now` (ms): live bookings and unlapsed holds from a day
 * before now to the end of the booking window, and busy times from `settings.feeds` (the union of the host's feeds;
 * unknown, so the host offers nothing, while one of them has no copy younger than
 * `DEMO_FEED_MAX_AGE_HOURS`: feeds.ts); a host without feeds is busy only with its bookings.
 */
export async function hostCalendars(
  db: Db,
  settings: BookingSettings,
  now: number,
): Promise<HostCalendar[]> {
  const rows = await db
    .select({
      hostEmail: demoBookings.hostEmail,
      startsAt: demoBookings.startsAt,
      endsAt: demoBookings.endsAt,
    })
    .from(demoBookings)
    .where(
      and(
        liveAt(now),
        gte(demoBookings.startsAt, new Date(now - day)),
        lt(demoBookings.startsAt, new Date(now + (settings.rules.bookingDays + 1) * day)),
      ),
    );
  const feeds = settings.feeds ?? processFeeds();
  return settings.hosts.map((host) => ({
    email: host.email,
    busy: feeds.busyOf(host.busyFeeds, now),
    bookings: rows
      .filter((row) => sameHost(row.hostEmail, host.email))
      .map((row) => ({ start: row.startsAt.getTime(), end: row.endsAt.getTime() })),
  }));
}

/**
 * The host e-mails `hosts` ordered from the one with the fewest upcoming demos (from `now`, ms) in
 * `calendars`, so demos go round the hosts; ties keep their order (`DEMO_HOSTS` order).
 */
export function hostsByLoad(
  hosts: readonly string[],
  calendars: readonly HostCalendar[],
  now: number,
): string[] {
  const upcoming = (email: string) =>
    calendars
      .find((host) => host.email === email)!
      .bookings.filter((booking) => booking.start >= now).length;
  return [...hosts].sort((a, b) => upcoming(a) - upcoming(b));
}
