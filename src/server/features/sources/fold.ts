import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db';

/**
 * Distinct values a source dimension stores per day before the rest is counted as `other`: a
 * bound on what is stored, set well above a day's real campaigns and referrers (each client
 * brings at most a few, client-values.ts); the report folds by volume (report.ts).
 */
export const DISTINCT_PER_DAY = 500;

/** The value the long tail of a dimension is folded into. */
export const OTHER = 'other';

/** The source dimensions of a count (`''`: none). */
export type SourceKey = {
  referrerHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
};

export const sourceDimensions = [
  'referrerHost',
  'utmSource',
  'utmMedium',
  'utmCampaign',
] as const satisfies readonly (keyof SourceKey)[];

/**
 * Folds the long tail of `keys` for one day: a value of a dimension that is neither among
 * `known[dimension]` (the day's values already stored) nor within the first `cap` distinct
 * values becomes {@link OTHER}; `''` (none) and `other` are never folded. Pure: the new values
 * it keeps are added to `known`.
 */
export function foldLongTail<K extends SourceKey>(
  keys: readonly K[],
  known: Record<keyof SourceKey, Set<string>>,
  cap = DISTINCT_PER_DAY,
): K[] {
  return keys.map((key) => {
    const folded = { ...key };
    for (const dimension of sourceDimensions) {
      const value = key[dimension];
      if (value === '' || value === OTHER) continue;
      const seen = known[dimension];
      if (seen.has(value)) continue;
      if (seen.size < cap) seen.add(value);
      else folded[dimension] = OTHER;
    }
    return folded;
  });
}

/**
 * The values of each source dimension already stored in `table` for `day` (what
 * {@link foldLongTail} must keep as they are).
 */
export async function knownValues(
  db: Db,
  table: PgTable & { day: PgColumn } & Record<keyof SourceKey, PgColumn>,
  day: string,
): Promise<Record<keyof SourceKey, Set<string>>> {
  const known = {} as Record<keyof SourceKey, Set<string>>;
  for (const dimension of sourceDimensions) {
    const column = table[dimension];
    const rows = await db
      .selectDistinct({ value: column })
      .from(table)
      .where(sql`${eq(table.day, day)} and ${column} not in ('', ${OTHER})`);
    known[dimension] = new Set(rows.map((row) => String(row.value)));
  }
  return known;
}
