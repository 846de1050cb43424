import '@test/quiet-logs';
import { cp, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
