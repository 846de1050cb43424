import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { defaultMigrationsFolder } from '../db/client';

/** A schema's migration level: how many migrations, and the newest one's time (ms, drizzle's `when`). */
export type MigrationLevel = { count: number; newest: number };

/** The level a database's schema is at (drizzle's `__drizzle_migrations`); zero when never migrated. */
export async function databaseLevel(db: Db): Promise<MigrationLevel> {
  const { rows } = (await db.execute(
    sql`SELECT count(*)::int AS count, coalesce(max(created_at), 0)::bigint AS newest
        FROM drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { count: number; newest: string | number }[] };
  return { count: Number(rows[0]!.count), newest: Number(rows[0]!.newest) };
}

/** The level this code's migrations bring a database to (`drizzle/meta/_journal.json`). */
export async function codeLevel(
  migrationsFolder = defaultMigrationsFolder(),
): Promise<MigrationLevel> {
  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number }[] };
  return {
    count: journal.entries.length,
    newest: Math.max(0, ...journal.entries.map((entry) => entry.when)),
  };
}

/** Whether a schema at `level` is newer than `code`'s: a migration this code does not know. */
export const newerThan = (level: MigrationLevel, code: MigrationLevel): boolean =>
  level.newest > code.newest || level.count > code.count;
