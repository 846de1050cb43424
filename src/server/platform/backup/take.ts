import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '../db';
import { keyFingerprint } from '../security/key-fingerprint';
import { encodeBackup, writeAtomically, type BackupHeader } from './file';
import { databaseLevel } from './migration-level';

export type BackupOptions = {
  /** Where to write it (the folder must exist); written atomically, owner-only (0600). */
  file: string;
  /** The site secret the database's hashes were made with: only its fingerprint is recorded. */
  key: string;
  /** An age recipient (`age1…`, BACKUP_AGE_RECIPIENT) to encrypt the backup to, if any. */
  recipient?: string;
  /** Awaited once half the file is written (a test kills the writer there). */
  halfway?: () => Promise<void>;
};

/** What a backup wrote: its header, its size in bytes and how long the dump held the database (ms). */
/** The database's clock now (its server's, which may differ from this machine's). */
async function databaseClock(database: Database): Promise<Date> {
  const { rows } = (await database.db.execute(
    sql`SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms`,
  )) as unknown as { rows: { ms: number | string }[] };
  return new Date(Number(rows[0]!.ms));
}

export type BackupResult = { header: BackupHeader; bytes: number; dumpMs: number };

/**
 * Takes a consistent backup of the running site's database without stopping it
 * (Database.dump: pglite-tools' pg_dump in the process holding PGlite, pg_dump for PostgreSQL):
 * the database only, never the key, with its migration level and key fingerprint in the header;
 * compressed, encrypted when a recipient is given, and written atomically (encodeBackup,
 * writeAtomically).
 * @throws when the dump fails or the file cannot be written (no half file is left under its name)
 */
export async function takeBackup(
  database: Database,
  options: BackupOptions,
): Promise<BackupResult> {
  const migrations = await databaseLevel(database.db);
  const startedAt = await databaseClock(database);
  const started = performance.now();
  const script = await database.dump();
  const dumpMs = Math.round(performance.now() - started);
  const header: BackupHeader = {
    format: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: (await databaseClock(database)).toISOString(),
    engine: database.kind,
    migrations,
    keyFingerprint: keyFingerprint(options.key),
  };
  const bytes = await encodeBackup(header, script, options.recipient);
  await writeAtomically(options.file, bytes, options.halfway);
  return { header, bytes: bytes.length, dumpMs };
}
