import { formatDay, formatTime, groupByDay } from './display';
import type { Slot } from './slots';

/**
 * The booking step as the page renders it: the signed booking token, whether
 * the enquiry came through "Schedule a Demo" (which heading to show), the provider's zone, and the
 * free times grouped by day in that zone, labelled ("Friday, 6 March 2026", "10:00 IST").
 */
export type BookingOffer = {
  token: string;
  demoRequested: boolean;
  timeZone: string;
  days: { date: string; label: string; times: { start: string; label: string }[] }[];
};

/**
 * Builds a BookingOffer's days from sorted `slots` (`start` in ms since the epoch), grouped by day
 * and labelled in `timeZone`; `start` values become ISO instants. With `alsoIn` (another zone),
 * each time shows that zone's time beside it when it reads differently: `10:30 EST (21:00 IST)`.
 */
export function offerDays(
  slots: readonly Pick<Slot, 'start'>[],
  timeZone: string,
  alsoIn?: string,
): BookingOffer['days'] {
  const label = (at: number) => {
    const here = formatTime(at, timeZone);
    const there = alsoIn ? formatTime(at, alsoIn) : here;
    return there === here ? here : `${here} (${there})`;
  };
  return groupByDay(slots, timeZone).map((day) => ({
    date: day.date,
    label: formatDay(day.slots[0]!.start, timeZone),
    times: day.slots.map((slot) => ({
      start: new Date(slot.start).toISOString(),
      label: label(slot.start),
    })),
  }));
}

/**
 * The offer's times for the picker: regrouped by the visitor's local day in
 * `visitorZone` (the browser's `Intl` zone) and labelled in it, the provider's time beside each
 * (`10:30 EST (21:00 IST)`). The `start` instants are the offer's own, so the same action books them.
 */
export function visitorDays(
  offer: Pick<BookingOffer, 'days' | 'timeZone'>,
  visitorZone: string,
): BookingOffer['days'] {
  const starts = offer.days.flatMap((day) =>
    day.times.map((time) => ({ start: Date.parse(time.start) })),
  );
  return offerDays(starts, visitorZone, offer.timeZone);
}
