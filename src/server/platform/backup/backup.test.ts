import '@test/quiet-logs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { keyFingerprint, SiteKeyMismatchError } from '../security/key-fingerprint';
import { decodeBackup, encodeBackup, writeAtomically, type BackupHeader } from './file';
import { codeLevel } from './migration-level';
import { replayable, restoreBackup } from './restore';

const KEY = 'the-key-of-the-backed-up-site-0123456789abcdef';
const header = (migrations: BackupHeader['migrations']): BackupHeader => ({
  format: 1,
  startedAt: '2026-11-28T09:00:00.000Z',
  finishedAt: '2026-11-28T09:00:01.000Z',
  engine: 'pglite',
  migrations,
  keyFingerprint: keyFingerprint(KEY),
});
const SCRIPT = 'CREATE TABLE public.probe (n int);\nINSERT INTO public.probe VALUES\n\t(1);\n';

describe('a backup file', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'nirmaya-backup-file-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('is compressed, and encrypted to an age recipient: only its identity opens it', async () => {
    const plain = await encodeBackup(header({ count: 1, newest: 1 }), SCRIPT);
    expect(Buffer.from(plain.subarray(0, 2))).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(await decodeBackup(plain)).toEqual({
      header: header({ count: 1, newest: 1 }),
      script: SCRIPT,
    });

    const identity = await generateIdentity();
    const sealed = await encodeBackup(
      header({ count: 1, newest: 1 }),
      SCRIPT,
      await identityToRecipient(identity),
    );
    expect(Buffer.from(sealed).includes('probe')).toBe(false);
    await expect(decodeBackup(sealed)).rejects.toThrow('The backup is encrypted');
    await expect(decodeBackup(sealed, [await generateIdentity()])).rejects.toThrow();
    expect((await decodeBackup(sealed, [identity])).script).toBe(SCRIPT);
    await expect(decodeBackup(new TextEncoder().encode('hello'))).rejects.toThrow('Not a backup');
  });

  it('is written owner-only, and a write that fails halfway leaves nothing under its name', async () => {
    const file = path.join(folder, 'done.sql.gz');
    await writeAtomically(file, new Uint8Array(1_000).fill(7));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file)).length).toBe(1_000);

    const failed = path.join(folder, 'failed.sql.gz');
    await expect(
      writeAtomically(failed, new Uint8Array(1_000), () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(await readdir(folder)).toEqual(['done.sql.gz']);
  });
});

describe('a script made replayable', () => {
  const key = 'AbC123';
  const dump = [
    '--',
    `\\restrict ${key}`,
    'SET statement_timeout = 0;',
    'SET transaction_timeout = 0;',
    'CREATE TABLE public.t (x text);',
    "INSERT INTO public.t VALUES ('a line',",
    '\\restrict not-the-key',
    'SET transaction_timeout = 0;',
    "');",
    `\\unrestrict ${key}`,
    '',
  ].join('\n');

  it("drops pg_dump's own \\restrict lines and, before 17, the preamble's transaction_timeout; never a data line", () => {
    const for15 = replayable(dump, 150_018);
    expect(for15).not.toContain(`restrict ${key}`);
    expect(for15).toContain('\n\\restrict not-the-key\nSET transaction_timeout = 0;\n');
    expect(for15.split('SET transaction_timeout').length).toBe(2);
    expect(replayable(dump, 180_000).split('SET transaction_timeout').length).toBe(3);
  });
});

describe('a restore, refused before anything changes', () => {
  let dataDir: string;
  let database: Database;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-restore-refused-'));
    database = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const tables = async () => {
    const { rows } = (await database.db.execute(
      sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    )) as unknown as { rows: { n: number }[] };
    return rows[0]!.n;
  };

  it('of a schema newer than this release, or under another key', async () => {
    const code = await codeLevel();
    const newer = await encodeBackup(
      header({ count: code.count + 1, newest: code.newest + 1 }),
      SCRIPT,
    );
    await expect(restoreBackup(database, { bytes: newer, key: KEY })).rejects.toThrow(
      "The backup's schema is newer than this release's",
    );
    const current = await encodeBackup(header(code), SCRIPT);
    await expect(
      restoreBackup(database, {
        bytes: current,
        key: 'another-key-0123456789abcdef0123456789',
        dataDir,
      }),
    ).rejects.toBeInstanceOf(SiteKeyMismatchError);
    expect(await tables()).toBe(0);
  });
});
