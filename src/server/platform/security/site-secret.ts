import 'server-only';
import { randomBytes } from 'node:crypto';
import { chmod, link, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { embeddedDataDir } from '../db/client';
import { log } from '../log';
import { OWNER_ONLY_FILE, ownerOnlyFolder } from '../owner-only';
import { appSecrets } from './schema';

const SECRET_NAME = 'site';
const cache = new WeakMap<Db, Promise<string>>();

/**
 * Where an embedded database's generated key is kept: `keys/site-secret` in its `DATA_DIR`, beside
 * the database (`DATA_DIR/pglite`), never in it, so a copy of the database signs nobody in and
 * forges no link (docs/deployment.md says how to back the key up, apart from the database).
 */
export function siteKeyFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'keys', 'site-secret');
}

/**
 * The site secret: the key that signs every token (form, booking, manage link;
 * src/server/platform/security/signed-token.ts) and proof-of-work challenge, and salts client-address
 * hashes. `configured` (`FORM_SECRET`) when set, and every instance must share it; it is required
 * with PostgreSQL (src/server/platform/env.ts), so a dump of a shared database never holds the key.
 * Only the embedded PGlite database, private to one process, gets a random key generated once,
 * kept in a file beside the database (siteKeyFile, mode 0600), never in it. A key an older release
 * stored in the database (table `app_secrets`) is moved to that file at the first start and
 * deleted from the database, never regenerated: every hash, suppression and link still matches.
 * Computed once per database handle.
 * @param db the database: an embedded one names the key file's directory (embeddedDataDir)
 * @param configured `FORM_SECRET`, if set
 * @returns the secret
 * @throws Error (as a rejected promise) when the generated key cannot be stored or read; the next
 * call tries again
 */
export function getSiteSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let secret = cache.get(db);
  if (!secret) {
    const dataDir = embeddedDataDir(db);
    secret = dataDir ? keyFromFile(db, siteKeyFile(dataDir)) : keyInDatabase(db);
    secret.catch(() => cache.delete(db));
    cache.set(db, secret);
  }
  return secret;
}

/**
 * The key in `file`; when there is none, the one an older release stored in the database, else a
 * new one, written once (a concurrent writer's key wins, and both return it). The database's copy
 * is then deleted.
 */
async function keyFromFile(db: Db, file: string): Promise<string> {
  let key = await readKey(file);
  // An install from before keeps its key file: owner-only from now on.
  if (key) {
    await ownerOnlyFolder(path.dirname(file));
    await chmod(file, OWNER_ONLY_FILE);
  }
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!key) key = await writeKeyOnce(file, row?.value ?? randomBytes(32).toString('base64url'));
  if (row) {
    if (row.value !== key)
      log.warn(
        { event: 'site_secret.database_copy_differs' },
        'The database held a site key other than the key file: the key file is kept.',
      );
    await db.delete(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
    await forgetDeletedKeys(db);
    log.info({ event: 'site_secret.moved_to_file' }, 'The site key was moved out of the database.');
  }
  return key;
}

/**
 * Removes every trace of a key deleted from `app_secrets` from an embedded database's files: a
 * deleted row stays readable in the table's file (a dead tuple) and in the write-ahead log until
 * both are rewritten. `VACUUM FULL` rewrites the table; a switch to a new WAL segment, then a
 * checkpoint with WAL recycling off, deletes the old segments instead of keeping them (with their
 * bytes) for reuse. PGlite runs the checkpoint in its one backend, so the session's setting holds.
 * Run outside a transaction.
 */
export async function forgetDeletedKeys(db: Db): Promise<void> {
  await db.execute(sql`VACUUM FULL app_secrets`);
  await db.execute(sql`SET wal_recycle = off`);
  try {
    await db.execute(sql`SELECT pg_switch_wal()`);
    await db.execute(sql`CHECKPOINT`);
  } finally {
    await db.execute(sql`RESET wal_recycle`);
  }
}

/**
 * The key an embedded database's `DATA_DIR` holds (siteKeyFile), or undefined when it has none;
 * never generates one (a restore must use the old key, not a new one).
 * @throws when the file exists but cannot be read or is empty
 */
export function readSiteKeyFile(dataDir: string): Promise<string | undefined> {
  return readKey(siteKeyFile(dataDir));
}

/** The key in `file`, or undefined when the file does not exist. */
async function readKey(file: string): Promise<string | undefined> {
  try {
    const key = (await readFile(file, 'utf8')).trim();
    if (!key) throw new Error(`The site key file ${file} is empty.`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes `key` to `file` unless it exists (written in full and synced under a temporary name, then
 * linked into place, which fails when another process got there first), and returns the file's key.
 */
async function writeKeyOnce(file: string, key: string): Promise<string> {
  await ownerOnlyFolder(path.dirname(file));
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const handle = await open(temporary, 'wx', OWNER_ONLY_FILE);
  try {
    await handle.writeFile(`${key}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  const written = await readKey(file);
  if (!written) throw new Error('The site secret could not be stored.');
  return written;
}

/**
 * A database that is not embedded and no FORM_SECRET (the environment refuses PostgreSQL without
 * it, so only a caller that omits `configured` gets here): the key generated once in the database.
 */
async function keyInDatabase(db: Db): Promise<string> {
  await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The site secret could not be stored.');
  return row.value;
}
