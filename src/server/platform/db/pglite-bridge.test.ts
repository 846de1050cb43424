import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { openDatabase, type Database } from './client';
import { bridgeDirectory, BRIDGE_SOCKET_NAME } from './pglite-bridge';

describe('PGlite shared on a Unix socket', () => {
  let dataDir: string;
  let site: Database;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-bridge-'));
    site = await openDatabase({ dataDir, serveLocalClients: true });
    await site.migrate();
    await site.db.execute(sql`CREATE TABLE probe (n int)`);
  });
  afterAll(async () => {
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const connect = async () => {
    const client = new Client({
      host: bridgeDirectory(dataDir),
      user: 'postgres',
      database: 'postgres',
    });
    await client.connect();
    return client;
  };

  it('is private to the owner: folder 0700, socket 0600', async () => {
    expect((await stat(bridgeDirectory(dataDir))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(bridgeDirectory(dataDir), BRIDGE_SOCKET_NAME))).mode & 0o777).toBe(
      0o600,
    );
  });

  it('lets another opener use the site through the socket instead of the locked directory', async () => {
    const started = Date.now();
    const cli = await openDatabase({ dataDir, preferRunningSite: true });
    await cli.migrate();
    await cli.db.execute(sql`INSERT INTO probe VALUES (1)`);
    await cli.close();
    const rows = await site.db.execute(sql`SELECT count(*)::int AS n FROM probe`);
    console.log(
      `bridge: CLI connected, migrated and wrote through the socket in ${Date.now() - started} ms`,
    );
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(1);
  });

  it("keeps a client's transaction whole: the site waits for it and never sees or joins it", async () => {
    const client = await connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO probe VALUES ($1)', [2]);
    const siteRead = site.db.execute(sql`SELECT count(*)::int AS n FROM probe`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.query('INSERT INTO probe VALUES ($1)', [3]);
    await client.query('ROLLBACK');
    await client.end();
    expect(((await siteRead) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(1);
  });

  it("keeps the site's transaction whole: a client's query waits for its commit", async () => {
    const client = await connect();
    const siteTx = site.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO probe VALUES (10)`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.execute(sql`INSERT INTO probe VALUES (11)`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = await client.query('SELECT count(*)::int AS n FROM probe');
    await siteTx;
    await client.end();
    expect(seen.rows[0].n).toBe(3);
  });

  it('rolls back the transaction of a client that disconnects inside it', async () => {
    const client = await connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO probe VALUES (99)');
    client.on('error', () => undefined); // the cut below is the point of the test
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
    const rows = await site.db.execute(sql`SELECT count(*)::int AS n FROM probe WHERE n = 99`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    expect(await site.db.execute(sql`SELECT 1`)).toBeTruthy();
  });
});
