import 'server-only';
import { computeSlots, type Slot } from '@/lib/demo/slots';
import type { Db } from '../../../platform/db';
import { sameHost } from '../bookings';
import { hostCalendars } from '../calendars';
import type { BookingSettings, DemoBooking } from '../types';

/** The times offered: to book a demo, and to move a booked one. */

/** The demo times free at `now` (ms since the epoch), sorted, each with its free hosts. */
export async function freeSlots(
  db: Db,
  settings: BookingSettings,
  now: number = Date.now(),
): Promise<Slot[]> {
  return computeSlots(settings.rules, await hostCalendars(db, settings, now), now);
}

/**
 * The times `booking` can move to at `now` (ms): the free slots computed as if it were not booked
 * (its own time does not block its host), without its current start.
 */
export async function rescheduleSlots(
  db: Db,
  settings: BookingSettings,
  booking: DemoBooking,
  now: number = Date.now(),
): Promise<Slot[]> {
  const at = booking.startsAt.getTime();
  const calendars = (await hostCalendars(db, settings, now)).map((calendar) =>
    sameHost(calendar.email, booking.hostEmail)
      ? { ...calendar, bookings: calendar.bookings.filter((interval) => interval.start !== at) }
      : calendar,
  );
  return computeSlots(settings.rules, calendars, now).filter((slot) => slot.start !== at);
}
