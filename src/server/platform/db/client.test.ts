import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
