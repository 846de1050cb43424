import '@test/quiet-logs';
import { chmod, cp, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeSignedCookie } from 'better-call';
import { openTestDatabase, type TestDatabase } from '@test/databases';
import { openDatabase, type Database } from '../db/client';
import { appSecrets } from './schema';
import { getSiteSecret, siteKeyFile } from './site-secret';
import { issuePrivacyLink, verifyPrivacyLink } from '../../features/privacy/link-token';
import { createAuth } from '../../features/console/auth';
import { operators, operatorSessions } from '../../features/console/schema';
import type { ConsoleEnv } from '../../features/console/env';

/** Every file under `directory`, recursively. */
async function filesIn(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The entries under `directory` (itself included) whose mode is not owner-only, with their mode. */
async function notOwnerOnly(directory: string): Promise<string[]> {
  const wrong: string[] = [];
  const check = async (file: string, isFolder: boolean) => {
    const mode = (await stat(file)).mode & 0o777;
    if (mode !== (isFolder ? 0o700 : 0o600)) wrong.push(`${file} ${mode.toString(8)}`);
  };
  await check(directory, true);
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true }))
    if (!entry.isSocket())
      await check(path.join(entry.parentPath, entry.name), entry.isDirectory());
  return wrong;
}

/** Makes every folder under `directory` 0755 and every file 0666, as PGlite and older releases left them. */
async function loosen(directory: string): Promise<void> {
  await chmod(directory, 0o755);
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true }))
    await chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o666);
}

// The tests against a production server run it with a known FORM_SECRET (so they can sign form
// tokens); the key an embedded database generates for itself when none is set is checked here.
describe('the site secret', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('is FORM_SECRET when set, and nothing is stored', async () => {
    const configured = 'configured-secret-0123456789abcdef0123456789';
    expect(await getSiteSecret(database.db, configured)).toBe(configured);
    expect(await database.db.select().from(appSecrets)).toEqual([]);
  });

  it('is generated once, kept in a file beside the embedded database and never in it', async () => {
    const [first, second] = await Promise.all([
      getSiteSecret(database.db),
      getSiteSecret(database.db, undefined),
    ]);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).toBe(first);
    expect(await database.db.select().from(appSecrets)).toEqual([]);
    expect(await getSiteSecret(database.db)).toBe(first);
  });
});

describe('the key of an embedded database, and a copy of it', () => {
  const dirs: string[] = [];
  const opened: Database[] = [];
  const fresh = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nirmaya-key-'));
    dirs.push(dir);
    return dir;
  };
  const open = async (dataDir: string) => {
    const database = await openDatabase({ dataDir });
    opened.push(database);
    await database.migrate();
    return database;
  };
  const close = async (database: Database) => {
    opened.splice(opened.indexOf(database), 1);
    await database.close();
  };
  afterAll(async () => {
    for (const database of opened) await database.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("moves an older release's key out of the database into its file, never regenerating it", async () => {
    const dataDir = await fresh();
    const database = await open(dataDir);
    const old = 'a-key-an-older-release-stored-in-the-database-000';
    await database.db.insert(appSecrets).values({ name: 'site', value: old });
    expect(await getSiteSecret(database.db)).toBe(old);
    expect(await database.db.select().from(appSecrets)).toEqual([]);
    const file = siteKeyFile(dataDir);
    expect((await readFile(file, 'utf8')).trim()).toBe(old);
    const mode = (await stat(file)).mode & 0o777;
    const dirMode = (await stat(path.dirname(file))).mode & 0o777;
    console.log(
      `key file ${path.relative(dataDir, file)}: mode ${mode.toString(8)}, folder ${dirMode.toString(8)}`,
    );
    expect(mode).toBe(0o600);
    expect(dirMode).toBe(0o700);
    await close(database);
    // The next start (a new handle) reads the file: the same key.
    expect(await getSiteSecret((await open(dataDir)).db)).toBe(old);
  });

  it("an upgrade's key move leaves no byte of the key in the database's files, the WAL included", async () => {
    const dataDir = await fresh();
    const old = `key-of-an-older-release-${randomUUID()}`;
    // An older release: its key in the database, its files world-readable.
    const before = await open(dataDir);
    await before.db.insert(appSecrets).values({ name: 'site', value: old });
    await close(before);
    await loosen(dataDir);
    const pgliteDir = path.join(dataDir, 'pglite');
    const withKey = async (directory: string) => {
      const found: string[] = [];
      for (const file of await filesIn(directory))
        if ((await readFile(file)).includes(old)) found.push(path.relative(directory, file));
      return found;
    };
    // The premise: the key is in its files before the upgrade, WAL included.
    expect(await withKey(pgliteDir)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^pg_wal\//)]),
    );

    // The upgrade starts: the install is tightened, and the key moved out and scrubbed.
    const upgraded = await open(dataDir);
    expect(await notOwnerOnly(dataDir)).toEqual([]);
    expect(await getSiteSecret(upgraded.db)).toBe(old);
    await close(upgraded);

    const copy = await fresh();
    await cp(pgliteDir, path.join(copy, 'pglite'), { recursive: true });
    const files = await filesIn(copy);
    expect(files.some((file) => file.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    expect(await withKey(copy)).toEqual([]);
    // Folders 0700 and files 0600 throughout DATA_DIR: the database, its WAL and the key.
    expect(await notOwnerOnly(dataDir)).toEqual([]);
    expect((await readFile(siteKeyFile(dataDir), 'utf8')).trim()).toBe(old);
    console.log(
      `after the key move: ${files.length} files of DATA_DIR/pglite searched, the key in none; every mode owner-only`,
    );
  }, 60_000);

  it('a copy of the data folder, opened elsewhere, signs nobody in and forges no link', async () => {
    const dataDir = await fresh();
    const original = await open(dataDir);
    const key = await getSiteSecret(original.db);
    const env = { ADMIN_EMAILS: [], SIGN_IN_MAX: 5 } as unknown as ConsoleEnv;
    const authOf = (db: Database['db'], secret: string) =>
      createAuth({ db, env, baseURL: 'http://localhost:3000' }, secret);
    // An operator signed in: the session's token is in the database.
    await original.db.insert(operators).values({
      id: 'op-1',
      email: 'ops@nirmaya.example',
      name: 'ops',
      emailVerified: true,
      role: 'admin',
    });
    const token = 'session-token-of-the-operator-000000000';
    await original.db.insert(operatorSessions).values({
      id: 's-1',
      token,
      userId: 'op-1',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const link = issuePrivacyLink(
      { kind: 'erase', email: 'asha@hospital.example', details: '' },
      key,
    );

    // The attacker copies the database (the folder PGlite keeps it in) and opens it elsewhere.
    const copyDir = await fresh();
    await cp(path.join(dataDir, 'pglite'), path.join(copyDir, 'pglite'), { recursive: true });
    for (const file of await filesIn(copyDir))
      expect((await readFile(file)).includes(key), file).toBe(false);
    const copy = await open(copyDir);
    const [stolen] = await copy.db.select().from(operatorSessions);
    expect(stolen?.token).toBe(token);
    const copyKey = await getSiteSecret(copy.db);
    expect(copyKey).not.toBe(key);

    // A cookie needs the token signed with the key (better-auth's signed cookie): the site, with
    // its key, knows the stolen token signed with its own auth secret, not with the copy's.
    const auth = authOf(original.db, key);
    const sessionFor = async (authSecret: string) => {
      const cookie = await serializeSignedCookie('nirmaya-console.session', token, authSecret);
      return auth.api.getSession({ headers: new Headers({ cookie: cookie.split(';')[0]! }) });
    };
    const copyAuthSecret = (await authOf(copy.db, copyKey).$context).secret;
    expect((await sessionFor((await auth.$context).secret))?.user.email).toBe(
      'ops@nirmaya.example',
    );
    expect(await sessionFor(copyAuthSecret)).toBe(null);

    // Links: the original's is not the copy's to read, and the copy's key forges none.
    expect(verifyPrivacyLink(link.token, copyKey)).toEqual({ ok: false, reason: 'invalid' });
    const forged = issuePrivacyLink(
      { kind: 'erase', email: 'asha@hospital.example', details: '' },
      copyKey,
    );
    expect(verifyPrivacyLink(forged.token, key)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyPrivacyLink(link.token, key).ok).toBe(true);
    console.log(
      `a copy of ${path.join(dataDir, 'pglite')} (${(await filesIn(copyDir)).length} files): the key in none; ` +
        "the stolen session token, signed with the copy's key: no session; links: not verified either way",
    );
  }, 60_000);
});
