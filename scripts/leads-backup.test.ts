import '@test/quiet-logs';
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { access, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase } from '@test/databases';
import { deps, formData, request, testWorker, TEST_SECRET } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { openDatabase, type Database, type Db } from '@/server/platform/db/client';
import { submitEnquiry } from '@/server/features/contact/submit';
import { leads } from '@/server/features/contact/schema';
import { jobs } from '@/server/delivery/queue/schema';
import { auditLog } from '@/server/platform/audit/schema';
import { verifyKey } from '@/server/platform/security/key-fingerprint';

const run = promisify(execFile);
const postgresUrl = process.env.TEST_DATABASE_URL;
const POSTS = 50;

/** Runs `npm run leads -- …args` with `env` over the test's; resolves with its exit code and output. */
async function leadsCli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'leads', '--', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A new empty database on the test PostgreSQL server (no table at all), and how to drop it. */
async function emptyPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `nirmaya_restore_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Every row of every table of the site and of drizzle's migrations, as JSON text, sorted, per table. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
    const { rows: tables } = (await tx.execute(
      sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_schema IN ('public', 'drizzle') AND table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { schema: string; name: string }[] };
    const result: Record<string, string[]> = {};
    for (const { schema, name } of tables) {
      const { rows } = (await tx.execute(
        sql.raw(`SELECT to_jsonb(t)::text AS row FROM "${schema}"."${name}" t`),
      )) as unknown as { rows: { row: string }[] };
      result[`${schema}.${name}`] = rows.map((row) => row.row).sort();
    }
    return result;
  });
}

/** The references of the enquiries in `db`. */
const referencesIn = async (db: Db) =>
  new Set((await db.select({ reference: leads.reference }).from(leads)).map((r) => r.reference));

/** The leads CLI's environment for a site on `backend`: its database and key. */
type Site = { database: Database; env: Record<string, string>; dispose(): Promise<void> };

/**
 * The running site on `kind`, in this process: PGlite in a folder of its own, serving the CLI on its
 * socket (as `npm start` does), or a PostgreSQL database; under FORM_SECRET, its fingerprint recorded.
 */
async function startSite(kind: 'pglite' | 'postgres'): Promise<Site> {
  if (kind === 'postgres') {
    const database = await openTestDatabase('postgres');
    await verifyKey(database.db, TEST_SECRET);
    return {
      database,
      env: { DATABASE_URL: database.url!, DATA_DIR: '', FORM_SECRET: TEST_SECRET },
      dispose: () => database.dispose(),
    };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-backup-site-'));
  const database = await openDatabase({ dataDir, serveLocalClients: true });
  await database.migrate();
  await verifyKey(database.db, TEST_SECRET);
  return {
    database,
    env: { DATABASE_URL: '', DATA_DIR: dataDir, FORM_SECRET: TEST_SECRET },
    async dispose() {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('leads backup and restore', backend), () => {
    let site: Site;
    let folder: string;
    let smtp: TestSmtpServer;
    const cleanup: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      site = await startSite(backend.kind);
      folder = await mkdtemp(path.join(tmpdir(), 'nirmaya-backups-'));
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      for (const step of cleanup) await step();
      await site?.dispose();
      await smtp?.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('backs up while 50 enquiries are posted, and restores into empty PGlite and PostgreSQL with identical rows; jobs due then are held, listed, and sent once when released', async () => {
      const { db } = site.database;
      // Before: two enquiries, one of whose e-mails was being sent when the backup began, and a
      // reminder due tomorrow.
      for (const subject of ['Before one', 'Before two'])
        await submitEnquiry(formData({ subject }), request(), deps(db));
      const [sending] = await db.select().from(jobs).limit(1);
      await db
        .update(jobs)
        .set({
          status: 'sending',
          claimToken: randomUUID(),
          lockedUntil: sql`now() + interval '1 minute'`,
        })
        .where(eq(jobs.id, sending!.id));
      const tomorrow = new Date(Date.now() + 86_400_000);
      await db.insert(jobs).values({
        id: randomUUID(),
        kind: 'test.reminder',
        payload: {},
        dedupeKey: 'reminder-tomorrow',
        dueAt: tomorrow,
        runAt: tomorrow,
      });

      // Visitors post one after another, 100 ms apart, from the backup's start until it has ended
      // and at least 50 have posted: the posts span the whole backup, its dump included.
      const began = Date.now();
      const file = path.join(folder, 'site.sql.gz');
      let backingUpDone = false;
      const backingUp = leadsCli(site.env, 'backup', file).finally(() => {
        backingUpDone = true;
      });
      const shownAt = new Map<string, number>();
      const posting = (async () => {
        const outcomes: { status: string; ms: number }[] = [];
        while (!backingUpDone || outcomes.length < POSTS) {
          const started = performance.now();
          const result = await submitEnquiry(
            formData({ subject: `During ${outcomes.length}` }),
            request(),
            deps(db),
          );
          if (result.status === 'accepted') shownAt.set(result.reference, Date.now());
          outcomes.push({ status: result.status, ms: performance.now() - started });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return outcomes;
      })();
      const backup = await backingUp;
      const results = await posting;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(results.length).toBeGreaterThanOrEqual(POSTS);
      expect(results.map((result) => result.status)).toEqual(
        Array.from({ length: results.length }, () => 'accepted'),
      );
      // The dump began at the backup's time (its header's start, in its output), after the CLI
      // started; every reference shown before then must be in it.
      const takenAt = Date.parse(/taken at (\S+),/.exec(backup.stdout)![1]!);
      expect(takenAt).toBeGreaterThan(began);
      const shownBefore = [...shownAt].filter(([, at]) => at < takenAt).map(([ref]) => ref);
      expect(shownBefore.length).toBeGreaterThan(0);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      console.log(
        `backup [${backend.kind}] during ${results.length} posts: ${backup.stdout.trim()} ` +
          `${shownBefore.length} of ${results.length} references shown before it began; slowest post ${Math.round(
            Math.max(...results.map((result) => result.ms)),
          )} ms`,
      );

      // Restore into an empty PGlite and an empty PostgreSQL, under the same key.
      const restoredDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-restored-'));
      cleanup.push(() => rm(restoredDir, { recursive: true, force: true }));
      const pgliteEnv = { DATABASE_URL: '', DATA_DIR: restoredDir, FORM_SECRET: TEST_SECRET };
      const intoPglite = await leadsCli(pgliteEnv, 'restore', file);
      expect(intoPglite.code, intoPglite.stderr).toBe(0);
      const targets: { name: string; database: Database; env: Record<string, string> }[] = [
        {
          name: 'pglite',
          // The restored site runs: the CLI lists and releases through its socket.
          database: await openDatabase({ dataDir: restoredDir, serveLocalClients: true }),
          env: pgliteEnv,
        },
      ];
      if (postgresUrl) {
        const empty = await emptyPostgres();
        cleanup.push(empty.drop);
        const postgresEnv = { DATABASE_URL: empty.url, DATA_DIR: '', FORM_SECRET: TEST_SECRET };
        const intoPostgres = await leadsCli(postgresEnv, 'restore', file);
        expect(intoPostgres.code, intoPostgres.stderr).toBe(0);
        expect(intoPostgres.stdout).toBe(intoPglite.stdout.replace(restoredDir, 'DATABASE_URL'));
        targets.push({
          name: 'postgres',
          database: await openDatabase({ url: empty.url, dataDir: '' }),
          env: postgresEnv,
        });
      }
      for (const target of targets) cleanup.unshift(() => target.database.close());

      const [first, ...others] = await Promise.all(targets.map((t) => everyRow(t.database.db)));
      expect(Object.keys(first!).length).toBeGreaterThan(15);
      // Each restore audits itself (its own id and time): the rest is the backup's, row for row.
      for (const rows of [first!, ...others]) {
        const restores = rows['public.audit_log']!.filter((row) => row.includes('"restore"'));
        expect(restores).toHaveLength(1);
        rows['public.audit_log'] = rows['public.audit_log']!.filter((row) => row !== restores[0]);
      }
      for (const other of others) expect(other).toEqual(first);
      const restored = await referencesIn(targets[0]!.database.db);
      const source = await referencesIn(db);
      for (const reference of shownBefore) expect(restored).toContain(reference);
      for (const reference of restored) expect(source).toContain(reference);

      // Held: the e-mail of every enquiry in the backup (one was being sent), not the reminder.
      const restoredEmails = restored.size;
      const heldLines = intoPglite.stdout.trim().split('\n').slice(1);
      expect(heldLines).toHaveLength(restoredEmails);
      expect(heldLines.every((line) => line.split('\t')[1] === 'enquiry.email')).toBe(true);
      expect(intoPglite.stderr).toContain(`${restoredEmails} jobs were due or being sent`);

      for (const target of targets) {
        const listed = await leadsCli(target.env, 'held');
        expect(listed.stdout).toBe(heldLines.map((line) => `${line}\n`).join(''));
        const worker = testWorker(target.database.db, smtp.url);
        const mailsBefore = smtp.received.length;
        await worker.drain();
        expect(smtp.received.length - mailsBefore).toBe(0);
        const released = await leadsCli(target.env, 'held', 'release', '--all');
        expect(released.stdout).toContain(`Released ${restoredEmails} held jobs`);
        await worker.drain();
        await worker.drain();
        const sent = smtp.received.slice(mailsBefore).map((mail) => mail.parsed.subject ?? '');
        expect(sent).toHaveLength(restoredEmails);
        for (const reference of restored)
          expect(sent.filter((subject) => subject.includes(reference))).toHaveLength(1);
        expect((await leadsCli(target.env, 'held')).stdout).toBe('');
        const audit = await target.database.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, 'job-release'));
        expect(audit).toHaveLength(restoredEmails);
        const [reminder] = await target.database.db
          .select({ status: jobs.status, dueAt: jobs.dueAt })
          .from(jobs)
          .where(eq(jobs.kind, 'test.reminder'));
        expect(reminder).toEqual({ status: 'pending', dueAt: tomorrow });
      }
    }, 300_000);

    it('refuses a restore under another key, and into a database that is not empty', async () => {
      const file = path.join(folder, 'site.sql.gz');
      const emptyDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-restored-'));
      cleanup.push(() => rm(emptyDir, { recursive: true, force: true }));
      const other = 'another-key-than-the-backups-0123456789abcdef';
      const refused = await leadsCli(
        { DATABASE_URL: '', DATA_DIR: emptyDir, FORM_SECRET: other },
        'restore',
        file,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The configured key is not the key this database');
      expect(refused.stderr).toContain('FORM_SECRET');
      expect(refused.stderr).toContain('DATA_DIR/keys/site-secret');
      // Nothing was written: the folder's database is still empty.
      const untouched = await openDatabase({ dataDir: emptyDir });
      const { rows } = (await untouched.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`,
      )) as unknown as { rows: { n: number }[] };
      await untouched.close();
      expect(rows[0]!.n).toBe(0);

      // Over the running site's database: PostgreSQL's is not empty; PGlite's is held by the site.
      const notEmpty = await leadsCli(site.env, 'restore', file);
      expect(notEmpty.code).toBe(1);
      expect(notEmpty.stderr).toContain(
        backend.kind === 'postgres' ? 'The database is not empty' : 'in use by another process',
      );
    }, 120_000);

    it('never leaves a half-written backup under its final name', async () => {
      const file = path.join(folder, 'killed.sql.gz');
      const signal = path.join(folder, 'paused');
      const child = spawn('npm', ['run', '--silent', 'leads', '--', 'backup', file], {
        env: { ...process.env, ...site.env, LOG_LEVEL: 'silent', BACKUP_TEST_PAUSE_FILE: signal },
        detached: true,
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const deadline = Date.now() + 60_000;
      while (
        !(await access(signal).then(
          () => true,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) throw new Error('The backup never reached its pause');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Killed halfway, as a power cut or an OOM kill would: npm, tsx and the CLI at once.
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      await expect(access(file)).rejects.toThrow();
      const partial = (await readdir(folder)).filter((name) => name.startsWith('.killed.sql.gz.'));
      expect(partial).toHaveLength(1);
      expect((await stat(path.join(folder, partial[0]!))).size).toBeGreaterThan(0);
      // The site was not disturbed: it still answers and writes.
      const result = await submitEnquiry(formData(), request(), deps(site.database.db));
      expect(result.status).toBe('accepted');
    }, 120_000);
  });
}
