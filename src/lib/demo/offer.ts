import { formatDay, formatTime, groupByDay } from './display';
import type { Slot } from './slots';

/**
 * The booking step as the page renders it (issue 16, items 1-2): the signed booking token, whether
 * the enquiry came through "Schedule a Demo" (which heading to show), the provider's zone, and the
 * free times grouped by day in that zone, labelled ("Friday, 6 March 2026", "10:00 IST").
 */
export type BookingOffer = {
  token: string;
  demoRequested: boolean;
  timeZone: string;
  days: { date: string; label: string; times: { start: string; label: string }[] }[];
};

/** Builds a BookingOffer's days from sorted `slots` in `timeZone`; `start` values are ISO instants. */
export function offerDays(slots: readonly Slot[], timeZone: string): BookingOffer['days'] {
  return groupByDay(slots, timeZone).map((day) => ({
    date: day.date,
    label: formatDay(day.slots[0]!.start, timeZone),
    times: day.slots.map((slot) => ({
      start: new Date(slot.start).toISOString(),
      label: formatTime(slot.start, timeZone),
    })),
  }));
}
