import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@/server/platform/db/client';

/**
 * Vitest global setup: one migrated PGlite data directory for the whole run, which
 * `openTestDatabase('pglite')` (tests/support/databases.ts) copies for each suite instead of
 * creating and migrating a database of its own (PGlite's first start, its initdb, takes seconds on
 * two cores; a copy and a start under one). Test processes find it through `TEST_PGLITE_TEMPLATE`
 * (they start after this and inherit the environment). Created and migrated from `drizzle/` on
 * every run, as the site creates its own, so a new migration is in it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nirmaya-pglite-template-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  process.env.TEST_PGLITE_TEMPLATE = path.join(dir, 'pglite');
  return () => rm(dir, { recursive: true, force: true });
}
