import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '../db';
import { keyFingerprint, SiteKeyMismatchError } from '../security/key-fingerprint';
import { decodeBackup, type BackupHeader } from './file';
import { codeLevel, newerThan } from './migration-level';

export type RestoreOptions = {
  /** The backup file's bytes. */
  bytes: Uint8Array;
  /** age identities (`AGE-SECRET-KEY-1…`) for an encrypted backup. */
  identities?: readonly string[];
  /** The key the restored site will run with (FORM_SECRET, or the embedded key file's). */
  key: string;
  /** The embedded database's DATA_DIR, named in a refusal; absent for PostgreSQL. */
  dataDir?: string;
  /** Drop everything in a database that is not empty first. */
  replace?: boolean;
  migrationsFolder?: string;
};

/** The tables a database holds outside PostgreSQL's own schemas (the site's and drizzle's). */
async function tableCount(db: Database['db']): Promise<number> {
  const { rows } = (await db.execute(
    sql`SELECT count(*)::int AS count FROM pg_catalog.pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  )) as unknown as { rows: { count: number }[] };
  return Number(rows[0]!.count);
}

/**
 * Makes a pg_dump script replayable on the target: drops psql's `\restrict` and `\unrestrict`
 * lines (pg_dump 15.14 and later wrap the script in them, with a random key they name) and, for a
 * server older than 17, the preamble's `SET transaction_timeout` (a dump of PGlite, PostgreSQL 18).
 * Only those lines are touched, never a line inside the data.
 */
export function replayable(script: string, serverVersion: number): string {
  let text = script;
  const restrict = /^\\restrict (\S+)\r?\n/m.exec(text.slice(0, 4_096));
  if (restrict) {
    text = text.replace(restrict[0], '');
    const end = `\\unrestrict ${restrict[1]}`;
    const at = text.lastIndexOf(end);
    if (at >= 0) text = text.slice(0, at) + text.slice(at + end.length);
  }
  if (serverVersion < 170_000) {
    const preamble = text.indexOf('\nCREATE ');
    const setting = text.indexOf('\nSET transaction_timeout = 0;');
    if (setting >= 0 && (preamble < 0 || setting < preamble))
      text = text.slice(0, setting) + text.slice(setting + '\nSET transaction_timeout = 0;'.length);
  }
  return text;
}

/**
 * Replays a backup (takeBackup) into `database`, which must be empty (no table) unless `replace`
 * drops everything in it first, then migrates it to this code's schema. Refused, before anything
 * is changed, when the backup's schema is newer than this code's, or when `key` is not the key
 * the backup's hashes were made with. The replay is one query: all of it or nothing.
 * @returns the backup's header (its time says which jobs may have been sent since)
 * @throws SiteKeyMismatchError for another key; Error for a newer schema, a non-empty database
 *   without `replace`, an unreadable backup or a failed replay
 */
export async function restoreBackup(
  database: Database,
  options: RestoreOptions,
): Promise<BackupHeader> {
  const { header, script } = await decodeBackup(options.bytes, options.identities);
  const code = await codeLevel(options.migrationsFolder);
  if (newerThan(header.migrations, code))
    throw new Error(
      `The backup's schema is newer than this release's (${header.migrations.count} migrations, ` +
        `this release knows ${code.count}): restore it with the release that took it, or a newer one.`,
    );
  if (keyFingerprint(options.key) !== header.keyFingerprint)
    throw new SiteKeyMismatchError(options.dataDir);
  const tables = await tableCount(database.db);
  if (tables > 0) {
    if (!options.replace)
      throw new Error(
        `The database is not empty (${tables} tables): restore into an empty database, or give ` +
          '--replace to drop everything in it first.',
      );
    await database.runScript(
      'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;',
    );
  }
  const { rows } = (await database.db.execute(
    sql`SELECT current_setting('server_version_num')::int AS version`,
  )) as unknown as { rows: { version: number }[] };
  await database.runScript(replayable(script, Number(rows[0]!.version)));
  await database.migrate();
  return header;
}
