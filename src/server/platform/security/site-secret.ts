import 'server-only';
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { embeddedDataDir } from '../db/client';
import { log } from '../log';
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
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!key) key = await writeKeyOnce(file, row?.value ?? randomBytes(32).toString('base64url'));
  if (row) {
    if (row.value !== key)
      log.warn(
        { event: 'site_secret.database_copy_differs' },
        'The database held a site key other than the key file: the key file is kept.',
      );
    await db.delete(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
    log.info({ event: 'site_secret.moved_to_file' }, 'The site key was moved out of the database.');
  }
  return key;
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
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const handle = await open(temporary, 'wx', 0o600);
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
