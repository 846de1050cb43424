import 'server-only';
import { localDate } from '@/lib/demo/slots';

/** Days the Sources page shows when no range is asked for (today and the 29 before). */
export const DEFAULT_RANGE_DAYS = 30;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function validDay(value: unknown): string | null {
  if (typeof value !== 'string' || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : null;
}

/**
 * The range of days (`YYYY-MM-DD`, both included, in the site's zone `timeZone`) the Sources page
 * shows from its query `from` and `to`: each used when it is a real date, else the last
 * DEFAULT_RANGE_DAYS days to today at `now`; swapped when given the wrong way round.
 */
export function sourcesRange(
  query: { from?: unknown; to?: unknown },
  timeZone: string,
  now: Date = new Date(),
): { from: string; to: string } {
  const to = validDay(query.to) ?? localDate(now.getTime(), timeZone);
  const from =
    validDay(query.from) ??
    new Date(new Date(`${to}T00:00:00Z`).getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS)
      .toISOString()
      .slice(0, 10);
  return from <= to ? { from, to } : { from: to, to: from };
}
