import { sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db';

/* Row counts per table, to show that two requests did the same writes. */

/** Row counts of every table of the public schema. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
  const tables = rows(
    await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const name = String(table_name);
    const [row] = rows(
      await db.execute(sql`select count(*)::int as n from ${sql.identifier(name)}`),
    );
    counts[name] = Number(row?.n ?? 0);
  }
  return counts;
}

/** What changed between two row counts (table: difference). */
export function difference(before: Record<string, number>, after: Record<string, number>) {
  return Object.fromEntries(
    Object.keys(after)
      .filter((table) => after[table] !== before[table])
      .map((table) => [table, after[table]! - (before[table] ?? 0)]),
  );
}
