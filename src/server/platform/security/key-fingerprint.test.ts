import '@test/quiet-logs';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { openDatabase } from '../db/client';
import {
  keyFingerprint,
  recordedFingerprint,
  SiteKeyMismatchError,
  verifiedSiteSecret,
  verifyKey,
} from './key-fingerprint';
import { getSiteSecret, siteKeyFile } from './site-secret';

const run = promisify(execFile);
const KEY = 'the-key-the-hashes-were-made-with-0123456789';
const OTHER = 'another-key-someone-configured-by-mistake-0000';

/** Runs `npm run leads -- list` with `env`; resolves with its exit code and standard error. */
async function leadsList(env: Record<string, string>) {
  try {
    await run('npm', ['run', '--silent', 'leads', '--', 'list'], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('the key fingerprint', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(() => database?.dispose());

    it('is recorded at the first start of a database that has none, and is not the key', async () => {
      expect(await recordedFingerprint(database.db)).toBeUndefined();
      await verifyKey(database.db, KEY);
      const recorded = await recordedFingerprint(database.db);
      expect(recorded).toBe(keyFingerprint(KEY));
      expect(recorded).toMatch(/^[0-9a-f]{64}$/);
      expect(recorded).not.toContain(KEY);
      expect(keyFingerprint(OTHER)).not.toBe(recorded);
      // The same key again: accepted, the record unchanged.
      await verifyKey(database.db, KEY);
      expect(await recordedFingerprint(database.db)).toBe(recorded);
    });

    it('refuses another key, naming FORM_SECRET and the key file', async () => {
      const refusal = await verifyKey(database.db, OTHER).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(SiteKeyMismatchError);
      expect((refusal as Error).message).toContain('FORM_SECRET');
      expect((refusal as Error).message).toContain('DATA_DIR/keys/site-secret');
      expect(await recordedFingerprint(database.db)).toBe(keyFingerprint(KEY));
    });

    it.runIf(backend.kind === 'postgres')(
      'the CLI refuses to act under another FORM_SECRET',
      async () => {
        const env = { DATABASE_URL: database.url!, DATA_DIR: '' };
        expect(await leadsList({ ...env, FORM_SECRET: KEY })).toEqual({ code: 0, stderr: '' });
        const refused = await leadsList({ ...env, FORM_SECRET: OTHER });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('The configured key is not the key this database');
        expect(refused.stderr).toContain('Set FORM_SECRET to the old key');
      },
      60_000,
    );
  });
}

describe('the key of an embedded database, checked', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-fingerprint-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('records its generated key; a FORM_SECRET set later, or a lost key file, is refused', async () => {
    const database = await openDatabase({ dataDir });
    await database.migrate();
    const generated = await verifiedSiteSecret(database.db);
    expect(generated).toBe(await getSiteSecret(database.db));
    expect(await recordedFingerprint(database.db)).toBe(keyFingerprint(generated));
    const refusal = await verifyKey(database.db, KEY).catch((error: unknown) => error);
    expect((refusal as Error).message).toContain(`here ${siteKeyFile(dataDir)}`);
    await database.close();

    // The CLI, as an operator runs it: under the generated key it acts; with FORM_SECRET it refuses.
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    expect(await leadsList(env)).toEqual({ code: 0, stderr: '' });
    const refused = await leadsList({ ...env, FORM_SECRET: KEY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FORM_SECRET');
    expect(refused.stderr).toContain(siteKeyFile(dataDir));
    // The key file lost: a new key would be generated, and is refused in turn.
    await rm(path.dirname(siteKeyFile(dataDir)), { recursive: true });
    const lost = await leadsList(env);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain('DATA_DIR/keys/site-secret');
  }, 90_000);
});
