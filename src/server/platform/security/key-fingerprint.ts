import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { embeddedDataDir } from '../db/client';
import { log } from '../log';
import { keyedHash } from './keyed-hash';
import { keyFingerprints } from './schema';
import { forgetDeletedKeys, getSiteSecret, siteKeyFile } from './site-secret';

/** The fixed value whose keyed hash is the fingerprint (never change it: stored fingerprints hold it). */
const FINGERPRINT_VALUE = 'site-key';
const ROW = 'site';

/** The fingerprint of `key`: its keyed hash of a fixed label (64 hex characters), not the key. */
export function keyFingerprint(key: string): string {
  return keyedHash('fingerprint', FINGERPRINT_VALUE, key);
}

/** A database whose recorded key fingerprint is not the configured key's. */
export class SiteKeyMismatchError extends Error {
  constructor(dataDir?: string) {
    super(keyMismatchMessage(dataDir));
    this.name = 'SiteKeyMismatchError';
  }
}

/**
 * What an operator is told when the key does not match the database: which key to set
 * (`FORM_SECRET`) and where an embedded database's old key is (`DATA_DIR/keys/site-secret`).
 * @param dataDir the embedded database's `DATA_DIR`, to name its key file; absent for PostgreSQL
 */
export function keyMismatchMessage(dataDir?: string): string {
  const file = dataDir ? ` (here ${siteKeyFile(dataDir)})` : '';
  return (
    'The configured key is not the key this database was used with: its keyed address hashes ' +
    '(suppressions of erased people, per-client limits) and the links already sent were made with ' +
    'another. Refusing to run: under another key every erased person becomes mailable again and ' +
    'every link stops working. Set FORM_SECRET to the old key, or put the generated key file of ' +
    `the old install, DATA_DIR/keys/site-secret${file}, back in place (and leave FORM_SECRET unset).`
  );
}

/** The fingerprint the database records, or undefined when it records none yet. */
export async function recordedFingerprint(db: Db): Promise<string | undefined> {
  const [row] = await db.select().from(keyFingerprints).where(eq(keyFingerprints.name, ROW));
  return row?.fingerprint;
}

/**
 * Checks that `key` is the key the database's hashes were made with: the database's recorded
 * fingerprint must be `key`'s. A database without one (new, or from a release before fingerprints)
 * records `key`'s; an embedded one then also scrubs a key an older release deleted from it
 * (forgetDeletedKeys).
 * @throws SiteKeyMismatchError when the recorded fingerprint is another key's
 */
export async function verifyKey(db: Db, key: string): Promise<void> {
  const fingerprint = keyFingerprint(key);
  const recorded = await db
    .insert(keyFingerprints)
    .values({ name: ROW, fingerprint })
    .onConflictDoNothing()
    .returning({ name: keyFingerprints.name });
  const dataDir = embeddedDataDir(db);
  if (recorded.length > 0) {
    log.info({ event: 'site_secret.fingerprint_recorded' });
    if (dataDir) await forgetDeletedKeys(db);
    return;
  }
  if ((await recordedFingerprint(db)) !== fingerprint) throw new SiteKeyMismatchError(dataDir);
}

const verified = new WeakMap<Db, Promise<string>>();

/**
 * The site secret (getSiteSecret) once it is checked against the database's fingerprint
 * (verifyKey); checked once per database handle, a failure is checked again on the next call.
 * @param configured `FORM_SECRET`, if set
 * @throws SiteKeyMismatchError (as a rejected promise) when the key is not the database's
 */
export function verifiedSiteSecret(db: Db, configured?: string): Promise<string> {
  let secret = verified.get(db);
  if (!secret) {
    secret = getSiteSecret(db, configured).then(async (key) => {
      await verifyKey(db, key);
      return key;
    });
    secret.catch(() => verified.delete(db));
    verified.set(db, secret);
  }
  return secret;
}
