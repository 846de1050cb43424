import 'server-only';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import lockfile from 'proper-lockfile';
import { Pool, type PoolConfig } from 'pg';
import { serverRoot } from '@/lib/server-root';
import { errorFacts, log } from '../log';
import { ownerOnlyFolder, tightenTree } from '../owner-only';
import { bridgeDirectory, startPgliteBridge } from './pglite-bridge';
import { dumpPglite, dumpPostgres, requestSiteDump, serveDumps } from './dump';

/** A Drizzle database over either driver; queries are written once against this type. */
export type Db = PgDatabase<PgQueryResultHKT>;

/** An open database: the Drizzle handle, which engine it is, and how to migrate and close it. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the SQL migrations in `drizzle/` under a PostgreSQL advisory lock. */
  migrate(): Promise<void>;
  /** A consistent dump of the whole database as pg_dump's plain SQL (platform/db/dump.ts). */
  dump(): Promise<string>;
  /**
   * Runs a multi-statement SQL script (a dump) as one query, so it applies whole or not at all, in
   * a session of its own whose settings the script may change. Not through a running site's socket.
   */
  runScript(script: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * The data directory of each embedded (PGlite) database handle, opened here or through its socket.
 * Kept on `globalThis`, as the handle is (./index.ts): Next.js bundles this module once per server
 * bundle (pages and actions, route handlers, the startup), and each copy must know a handle another
 * opened, or it takes the embedded database for PostgreSQL and keys the site in the database.
 */
const embeddedDirectories = ((
  globalThis as typeof globalThis & { __nirmayaEmbeddedDirectories?: WeakMap<Db, string> }
).__nirmayaEmbeddedDirectories ??= new WeakMap<Db, string>());

/**
 * The data directory (`DATA_DIR`, resolved) of an embedded PGlite database, whether this process
 * opened it or reaches it through the running site's socket; undefined for PostgreSQL. The site's
 * generated key lives beside the database there (platform/security/site-secret.ts).
 */
export function embeddedDataDir(db: Db): string | undefined {
  return embeddedDirectories.get(db);
}

/** Records `database` as the embedded database of `dataDir` (embeddedDataDir). */
function embedded(database: Database, dataDir: string): Database {
  embeddedDirectories.set(database.db, path.resolve(dataDir));
  return database;
}

/** Key of the advisory lock serialising migrations across instances (any constant bigint). */
const MIGRATION_LOCK_KEY = 4_711_203_001;

/** Where the generated migrations live: `drizzle/` in the server's root (the repository, or the standalone bundle). */
export const defaultMigrationsFolder = () =>
  path.join(/* turbopackIgnore: true */ serverRoot, 'drizzle');

export type OpenOptions = {
  /** A `postgres://` URL: use that server; otherwise PGlite in `dataDir`. */
  url?: string;
  /** PGlite's data directory (created if missing). */
  dataDir: string;
  migrationsFolder?: string;
  /** Connections in the PostgreSQL pool (default 10). */
  poolSize?: number;
  /**
   * PGlite only, for the site's server process: serve the database to local clients (the `leads`
   * CLI) on a Unix socket in `dataDir` while it is open (`startPgliteBridge`).
   */
  serveLocalClients?: boolean;
  /**
   * PGlite only, for the `leads` CLI: when the running site serves `dataDir` on its socket, use
   * it through `pg` (one connection) instead of opening PGlite, which the site holds.
   */
  preferRunningSite?: boolean;
};

/**
 * Opens the database: PostgreSQL when `url` is set, else PGlite in `dataDir`.
 * PGlite must never be opened by two processes at once (it corrupts the directory), so the
 * directory is locked first; a second opener waits up to 15 s, then fails with an error saying
 * which directory is busy. With `serveLocalClients` the opener shares it on a Unix socket, and an
 * opener with `preferRunningSite` uses that socket when it answers.
 * @throws when the server is unreachable or the PGlite directory is locked by another process.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder();
  if (options.url) {
    const url = options.url;
    return {
      ...(await openPostgres(
        { connectionString: url, max: options.poolSize ?? 10 },
        migrationsFolder,
      )),
      dump: () => dumpPostgres(url),
    };
  }
  if (options.preferRunningSite) {
    // The site's socket (a stale file or none refuses the connection: then open PGlite here).
    const viaSite = await openPostgres(
      { host: bridgeDirectory(options.dataDir), user: 'postgres', database: 'postgres', max: 1 },
      migrationsFolder,
    ).catch(() => undefined);
    if (viaSite)
      return embedded(
        {
          ...viaSite,
          kind: 'pglite',
          dump: () => requestSiteDump(options.dataDir),
          runScript: () =>
            Promise.reject(new Error('Stop the site first: it holds the embedded database.')),
        },
        options.dataDir,
      );
  }
  return embedded(
    await openPglite(options.dataDir, migrationsFolder, options.serveLocalClients ?? false),
    options.dataDir,
  );
}

async function openPostgres(
  config: PoolConfig,
  migrationsFolder: string,
): Promise<Omit<Database, 'dump'>> {
  const pool = new Pool(config);
  // An idle connection dropped by the server (restart, failover, terminated backend) emits 'error'
  // on the pool; unhandled, it would crash the process. The pool replaces the client by itself.
  pool.on('error', (error) =>
    log.warn({ event: 'database.idle_client_error', error: errorFacts(error) }),
  );
  const db = drizzlePg({ client: pool });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // A session-level advisory lock needs one connection for lock, migrate and unlock.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migratePg(drizzlePg({ client }), { migrationsFolder });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async runScript(script) {
      const client = await pool.connect();
      try {
        await client.query(script);
      } finally {
        // The script's session settings (an empty search_path) must not reach the pool: the
        // connection is closed, not returned.
        client.release(true);
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(
  dataDir: string,
  migrationsFolder: string,
  serve: boolean,
): Promise<Database> {
  const directory = path.resolve(dataDir);
  // DATA_DIR holds every enquiry and the key: owner-only, also for an install made before.
  await ownerOnlyFolder(directory);
  // The lock is refreshed every 2 s; one left by a killed process goes stale after 10 s, so an
  // immediate restart waits for it (up to 15 s) instead of failing.
  const release = await lockfile
    .lock(directory, {
      lockfilePath: path.join(directory, '.pglite.lock'),
      stale: 10_000,
      update: 2_000,
      retries: { retries: 15, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
    })
    .catch((error: unknown) => {
      throw new Error(
        `The PGlite data directory ${directory} is in use by another process (the running site?). ` +
          'Stop it first, or use PostgreSQL (DATABASE_URL) to share the database.',
        { cause: error },
      );
    });
  try {
    const client = await PGlite.create(path.join(directory, 'pglite'));
    // PGlite makes its files world-writable (0666; the files it adds later are 0600), and the
    // lock folder is 0755: everything in DATA_DIR becomes owner-only, an older install's too.
    await tightenTree(directory);
    // Without the socket (e.g. a path over the 107-byte limit) the site still runs; the CLI then
    // finds the directory locked and says so.
    const bridge = serve
      ? await startPgliteBridge(client, directory).catch((error: unknown) => {
          log.warn({ event: 'database.socket_unavailable', error: errorFacts(error) });
          return undefined;
        })
      : undefined;
    // Without the dump socket the site still runs; `leads backup` then says the site serves none.
    const stopDumps = bridge
      ? await serveDumps(client, directory).catch((error: unknown) => {
          log.warn({ event: 'database.dump_socket_unavailable', error: errorFacts(error) });
          return undefined;
        })
      : undefined;
    const db = drizzlePglite({ client });
    return {
      db,
      kind: 'pglite',
      async migrate() {
        await db.execute(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
        try {
          await migratePglite(db, { migrationsFolder });
        } finally {
          await db.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
        }
      },
      dump: () => dumpPglite(client),
      async runScript(script) {
        await client.exec(script);
        await client.exec('RESET ALL');
      },
      async close() {
        await stopDumps?.();
        await bridge?.close();
        await client.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
