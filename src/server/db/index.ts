import 'server-only';
import { getEnv } from '../env';
import { openDatabase, type Database } from './client';

export type { Database, Db } from './client';

/** The process-wide database, kept on `globalThis` so module reloads (`next dev`) share it. */
const holder = globalThis as typeof globalThis & { __nirmayaDatabase?: Promise<Database> };

/**
 * The site's database, opened and migrated on first call (never at import), from `DATABASE_URL`
 * or PGlite in `DATA_DIR`. A failed open is not cached: the next call tries again.
 */
export function getDatabase(): Promise<Database> {
  holder.__nirmayaDatabase ??= (async () => {
    const env = getEnv();
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  })().catch((error: unknown) => {
    holder.__nirmayaDatabase = undefined;
    throw error;
  });
  return holder.__nirmayaDatabase;
}
