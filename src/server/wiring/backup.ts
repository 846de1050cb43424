import 'server-only';
import type { Database, Db } from '../platform/db';
import { appendAudit, type Actor } from '../platform/audit';
import { restoreBackup, takeBackup, type BackupResult } from '../platform/backup';
import type { BackupHeader } from '../platform/backup';
import {
  SiteKeyMismatchError,
  verifiedSiteSecret,
  verifyKey,
} from '../platform/security/key-fingerprint';
import { readSiteKeyFile } from '../platform/security/site-secret';
import type { Env } from '../platform/env';
import {
  dropHeldJobs,
  holdJobsDueBy,
  listHeldJobs,
  releaseHeldJobs,
  type HeldJob,
} from '../delivery/queue/held';

/**
 * Backs the site's database up to `file` (takeBackup) under its checked key, encrypted to
 * `BACKUP_AGE_RECIPIENT` when set.
 * @throws SiteKeyMismatchError when the configured key is not the database's; Error when the dump
 *   or the write fails
 */
export async function backupSite(
  database: Database,
  env: Pick<Env, 'FORM_SECRET' | 'BACKUP_AGE_RECIPIENT'>,
  file: string,
  halfway?: () => Promise<void>,
): Promise<BackupResult> {
  const key = await verifiedSiteSecret(database.db, env.FORM_SECRET);
  return takeBackup(database, { file, key, recipient: env.BACKUP_AGE_RECIPIENT, halfway });
}

export type RestoreRequest = {
  bytes: Uint8Array;
  identities?: readonly string[];
  replace?: boolean;
  /** Release the held jobs at once (a planned move, where nothing ran after the backup). */
  release?: boolean;
};

/**
 * Restores a backup into `database` (restoreBackup) under the key the restored site will run with:
 * `FORM_SECRET`, else the embedded database's key file in `DATA_DIR` (never a new key). Then holds
 * the jobs that were due or claimed when the backup was taken (holdJobsDueBy, by the dump's end),
 * since they may have been sent after it, and releases them when asked. Audited as `restore` by `actor`.
 * @returns the backup's header and the jobs held (empty when released)
 * @throws SiteKeyMismatchError when no key or another key is configured; Error as restoreBackup
 */
export async function restoreSite(
  database: Database,
  env: Pick<Env, 'FORM_SECRET' | 'DATA_DIR'>,
  actor: Actor,
  request: RestoreRequest,
): Promise<{ header: BackupHeader; held: HeldJob[] }> {
  const dataDir = database.kind === 'pglite' ? env.DATA_DIR : undefined;
  const key = env.FORM_SECRET ?? (dataDir ? await readSiteKeyFile(dataDir) : undefined);
  if (!key) throw new SiteKeyMismatchError(dataDir);
  const header = await restoreBackup(database, { ...request, key, dataDir });
  await verifyKey(database.db, key);
  const held = await holdJobsDueBy(database.db, new Date(header.finishedAt));
  await appendAudit(
    database.db,
    actor,
    'restore',
    null,
    `backup taken ${header.startedAt}; ${held.length} jobs held`,
  );
  if (request.release && held.length > 0) {
    await actOnHeld(database.db, actor, 'release');
    return { header, held: [] };
  }
  return { header, held };
}

export { listHeldJobs, type HeldJob };

/**
 * Releases (sent once by the running site) or drops (never sent) held jobs, all or `ids`, one
 * `job-release` or `job-drop` audit row per job in the same transaction.
 * @returns the ids acted on
 */
export function actOnHeld(
  db: Db,
  actor: Actor,
  act: 'release' | 'drop',
  ids?: readonly string[],
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const before = new Map((await listHeldJobs(tx)).map((job) => [job.id, job.kind]));
    const done = act === 'release' ? await releaseHeldJobs(tx, ids) : await dropHeldJobs(tx, ids);
    for (const id of done) await appendAudit(tx, actor, `job-${act}`, id, before.get(id) ?? null);
    return done;
  });
}
