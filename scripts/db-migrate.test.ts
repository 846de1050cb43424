import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

const run = promisify(execFile);
const postgresUrl = process.env.TEST_DATABASE_URL;

/** Runs `npm run db:migrate` as the release job does, from another working directory. */
async function migrate(env: Record<string, string>) {
  return run(
    'npm',
    ['run', '--silent', '--prefix', path.resolve(import.meta.dirname, '..'), 'db:migrate'],
    {
      cwd: tmpdir(),
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
    },
  );
}

async function query(url: string, statement: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

describe('npm run db:migrate', { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('migrates PGlite, and a second run changes nothing', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-migrate-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    for (let round = 0; round < 2; round++) {
      const { stdout } = await migrate({ DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(stdout).toContain('"event":"database.migrated","kind":"pglite"');
    }
  });

  it.skipIf(!postgresUrl)(
    'migrates PostgreSQL from two jobs at once, applying each migration once',
    async () => {
      const name = `nirmaya_migrate_${randomBytes(6).toString('hex')}`;
      await query(postgresUrl!, `CREATE DATABASE ${name}`);
      cleanups.push(() => query(postgresUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      const env = {
        DATABASE_URL: url.toString(),
        FORM_SECRET: 'migrate-test-secret-0123456789abcdef',
      };
      await Promise.all([0, 1].map(() => migrate(env)));
      await migrate(env);
      const applied = await query(url.toString(), 'SELECT hash FROM drizzle.__drizzle_migrations');
      const files = readdirSync(path.resolve(import.meta.dirname, '../drizzle')).filter((file) =>
        file.endsWith('.sql'),
      );
      console.log(
        `${applied.length} migrations recorded for ${files.length} files after three runs`,
      );
      expect(applied).toHaveLength(files.length);
    },
  );
});
