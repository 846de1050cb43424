import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import '@test/quiet-logs';

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

describe.skipIf(postgres.skipReason)(backendTitle('a dropped idle connection', postgres), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });
  afterAll(() => database?.dispose());

  it('does not crash the process, and the next query gets a fresh connection', async () => {
    await database.db.execute(sql`SELECT 1`);
    // Terminate every backend of this database, as a server restart or failover would.
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const result = await database.db.execute(sql`SELECT 1 AS one`);
    expect((result as { rows: unknown[] }).rows[0]).toEqual({ one: 1 });
  });
});

describe('an embedded database opened by one copy of the module', () => {
  it('is known as embedded, with its directory, to another copy (Next.js bundles one per server bundle)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-embedded-'));
    vi.resetModules();
    const opener = await import('./client');
    vi.resetModules();
    const other = await import('./client');
    expect(other).not.toBe(opener);
    const database = await opener.openDatabase({ dataDir });
    try {
      expect(other.embeddedDataDir(database.db)).toBe(path.resolve(dataDir));
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
