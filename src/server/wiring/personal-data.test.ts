import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { personalData, tablesFreeOfPersonalData } from './personal-data';

const serverRoot = join(__dirname, '..');

/** Every `schema.ts` under src/server, as paths relative to it. */
function schemaFiles(dir = serverRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(path);
    return entry.name === 'schema.ts' ? [relative(serverRoot, path)] : [];
  });
}

/** The name of every table exported by every schema file, with the file it is in. */
async function everyTable(): Promise<{ name: string; file: string }[]> {
  const tables = [];
  for (const file of schemaFiles()) {
    const exports = (await import(join(serverRoot, file))) as Record<string, unknown>;
    for (const value of Object.values(exports))
      if (is(value, PgTable)) tables.push({ name: getTableConfig(value).name, file });
  }
  return tables;
}

const nameOf = (table: PgTable) => getTableConfig(table).name;
const holders = personalData({ webhookUrls: [] });
const registered = new Set(holders.flatMap((holder) => holder.tables.map(nameOf)));
const free = new Map(tablesFreeOfPersonalData.map(({ table, reason }) => [nameOf(table), reason]));

describe('personal data registrations', () => {
  it('finds the tables of every schema file (the enumeration itself works)', async () => {
    const tables = await everyTable();
    expect(schemaFiles().length).toBeGreaterThanOrEqual(9);
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(['leads', 'demo_bookings', 'privacy_requests', 'jobs', 'operators']),
    );
  });

  it('has every table either registered by a holder or declared free of personal data, with a reason', async () => {
    const unaccounted = (await everyTable())
      .filter((table) => !registered.has(table.name) && !free.has(table.name))
      .map((table) => `${table.name} (${table.file})`);
    expect(unaccounted).toEqual([]);
    for (const [name, reason] of free) expect(reason.length, name).toBeGreaterThan(10);
  });

  it('never both registers a table and declares it free', () => {
    expect([...free.keys()].filter((name) => registered.has(name))).toEqual([]);
  });

  it('erases the demos before the contact form: their cancellations leave before the enquiries go', () => {
    const order = holders.map((holder) => holder.name);
    expect(order.indexOf('demos')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('demos')).toBeLessThan(order.indexOf('contact'));
  });
});
