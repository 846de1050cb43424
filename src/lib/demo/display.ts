import { localDate, type Slot } from './slots';

/** Offered slots of one local day in a zone (days, then times). */
export type SlotDay<T extends Pick<Slot, 'start'> = Slot> = { date: string; slots: T[] };

/**
 * Groups sorted `slots` (anything with a `start` instant in ms) by their local date in `timeZone`
 * (a visitor's day may differ from the provider's).
 */
export function groupByDay<T extends Pick<Slot, 'start'>>(
  slots: readonly T[],
  timeZone: string,
): SlotDay<T>[] {
  const days: SlotDay<T>[] = [];
  for (const slot of slots) {
    const date = localDate(slot.start, timeZone);
    const last = days.at(-1);
    if (last?.date === date) last.slots.push(slot);
    else days.push({ date, slots: [slot] });
  }
  return days;
}

/** Whether `zone` is an IANA time zone name this runtime knows (`Asia/Kolkata`). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A zone's short name at an instant: the first of en-US, en-IN and en-GB that names it rather than
 * giving an offset (`EDT`, `IST`, `BST`), else the offset (`GMT+4`).
 */
export function zoneName(at: number, timeZone: string): string {
  const names = ['en-US', 'en-IN', 'en-GB'].map(
    (locale) =>
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')?.value ?? 'UTC',
  );
  return names.find((name) => !/^(GMT|UTC)[+-]/.test(name)) ?? names[0]!;
}

/** A time of day in `timeZone` with its zone named, 24-hour: `11:30 IST`. */
export function formatTime(at: number, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${time} ${zoneName(at, timeZone)}`;
}

/** A date in `timeZone` for headings and labels: `Monday, 9 March 2026`. */
export function formatDay(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(at);
}
