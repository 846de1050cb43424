// Backup and restore of 100,000 enquiries (a benchmark, not a test): `LOG_LEVEL=silent npx tsx --conditions=react-server
// scripts/bench/backup.mts [count]`. Fills a PGlite site (this process, serving the CLI on its socket
// as `npm start` does) with `count` enquiries (default 100,000; realistic sizes, each with its
// e-mail job), then runs `npm run leads -- backup` through the site while one enquiry is posted
// every 50 ms (the longest wait of a post is the time the dump holds PGlite), and restores the file
// into an empty PGlite and, when TEST_DATABASE_URL is set, an empty PostgreSQL; then backs that
// PostgreSQL up with pg_dump. Prints a Markdown table for docs/bench-log/.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { openDatabase } from '@/server/platform/db/client';
import { verifyKey } from '@/server/platform/security/key-fingerprint';
import { submitEnquiry } from '@/server/features/contact/submit';
import { deps, formData, request, TEST_SECRET } from '../../tests/support/enquiry';

const run = promisify(execFile);
const count = Number(process.argv[2] ?? 100_000);
const postgresUrl = process.env.TEST_DATABASE_URL;

/** Runs the leads CLI with `env`; resolves with its output and wall time (ms). */
async function leads(env: Record<string, string>, ...args: string[]) {
  const started = performance.now();
  const { stdout } = await run('npm', ['run', '--silent', 'leads', '--', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', FORM_SECRET: TEST_SECRET, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout: stdout.trim(), ms: Math.round(performance.now() - started) };
}

const work = await mkdtemp(path.join(tmpdir(), 'nirmaya-bench-backup-'));
const siteDir = path.join(work, 'site');
const site = await openDatabase({ dataDir: siteDir, serveLocalClients: true });
await site.migrate();
await verifyKey(site.db, TEST_SECRET);
const filling = performance.now();
for (let start = 0; start < count; start += 10_000) {
  const end = Math.min(count, start + 10_000);
  await site.db.execute(sql`
    WITH rows AS (
      SELECT gen_random_uuid() AS id, g FROM generate_series(${start + 1}::int, ${end}::int) g
    ), inserted AS (
      INSERT INTO leads (id, reference, submission_id, first_name, last_name, email, organization,
                         subject, message, created_at, notice_version, landing_page, utm_source)
      SELECT id, 'NH-B' || lpad(g::text, 9, '0'), 'bench-' || g, 'Asha', 'Rao ' || g,
             'asha.rao.' || g || '@hospital' || (g % 997) || '.example', 'City General Hospital ' || g,
             'Laboratory module enquiry ' || g,
             repeat('We would like to know more about the laboratory integration. ', 6) || g,
             now() - (g || ' minutes')::interval, '2026-01', '/contact-us', 'newsletter'
      FROM rows RETURNING id
    )
    INSERT INTO jobs (id, kind, payload, dedupe_key, owner, status, attempts, finished_at)
    SELECT gen_random_uuid(), 'enquiry.email', jsonb_build_object('leadId', id),
           'enquiry.email:' || id, id::text, 'sent', 1, now()
    FROM inserted`);
}
const fillMs = Math.round(performance.now() - filling);
const siteEnv = { DATA_DIR: siteDir, DATABASE_URL: '' };

// Posts during the backup: one every 50 ms, each timed.
const waits: number[] = [];
let posting = true;
const poster = (async () => {
  while (posting) {
    const started = performance.now();
    const result = await submitEnquiry(formData(), request(), deps(site.db));
    if (result.status !== 'accepted') throw new Error(`A post was refused: ${result.status}`);
    waits.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();
const file = path.join(work, 'backup.sql.gz');
const backup = await leads(siteEnv, 'backup', file);
posting = false;
await poster;
const size = (await stat(file)).size;

const restoredDir = path.join(work, 'restored');
const intoPglite = await leads({ DATA_DIR: restoredDir, DATABASE_URL: '' }, 'restore', file);
const rows: string[][] = [
  ['enquiries', count.toLocaleString('en')],
  ['fill (SQL, not measured)', `${fillMs} ms`],
  ['backup file (gzip)', `${(size / 1024 / 1024).toFixed(1)} MB`],
  [
    '`leads backup` on PGlite, through the running site (wall, CLI start included)',
    `${backup.ms} ms`,
  ],
  ['  of which the dump holding PGlite', backup.stdout.match(/dump took (\d+) ms/)?.[1] + ' ms'],
  [
    'posts during it: count, median, longest wait',
    `${waits.length}, ${Math.round(waits.sort((a, b) => a - b)[waits.length >> 1]!)} ms, ${Math.round(Math.max(...waits))} ms`,
  ],
  ['`leads restore` into an empty PGlite (wall)', `${intoPglite.ms} ms`],
];
if (postgresUrl) {
  const name = `nirmaya_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), DATA_DIR: '' };
  const intoPostgres = await leads(env, 'restore', file);
  const pgFile = path.join(work, 'postgres.sql.gz');
  const pgBackup = await leads(env, 'backup', pgFile);
  rows.push(
    ['`leads restore` into an empty PostgreSQL 15 (wall)', `${intoPostgres.ms} ms`],
    ['`leads backup` on PostgreSQL 15 (pg_dump 15; wall)', `${pgBackup.ms} ms`],
    ['  its file (gzip)', `${((await stat(pgFile)).size / 1024 / 1024).toFixed(1)} MB`],
  );
  await admin(`DROP DATABASE ${name} WITH (FORCE)`);
}
await site.close();
await rm(work, { recursive: true, force: true });
console.log('| What | Figure |\n| --- | --- |');
for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
