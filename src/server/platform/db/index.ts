import 'server-only';
import { getEnv } from '../env';
import { openDatabase, type Database } from './client';

export type { Database, Db } from './client';

/** The process-wide database, kept on `globalThis` so module reloads (`next dev`) share it. */
const holder = globalThis as typeof globalThis & {
  __nirmayaDatabase?: Promise<Database>;
  __nirmayaDatabaseClosed?: boolean;
};

/**
 * The site's database, opened and migrated on first call (never at import), from `DATABASE_URL`
 * or PGlite in `DATA_DIR` (shared with the `leads` CLI on a Unix socket there). A failed open is not cached: the next call tries again.
 */
export function getDatabase(): Promise<Database> {
  if (holder.__nirmayaDatabaseClosed)
    return Promise.reject(new Error('The database is closed: the server is stopping'));
  holder.__nirmayaDatabase ??= (async () => {
    const env = getEnv();
    const database = await openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      serveLocalClients: true,
    });
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

/**
 * Closes the site's database for good (graceful shutdown): the PostgreSQL pool, or PGlite with its
 * socket for the CLI and its directory lock, so a restart opens it at once. Later `getDatabase`
 * calls fail. A database that never opened has nothing to close.
 * @throws when closing fails (the pool or PGlite reports an error).
 */
export async function closeDatabase(): Promise<void> {
  holder.__nirmayaDatabaseClosed = true;
  const opening = holder.__nirmayaDatabase;
  holder.__nirmayaDatabase = undefined;
  const database = await opening?.catch(() => undefined);
  await database?.close();
}
