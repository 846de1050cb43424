import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '@test/databases';
import { appSecrets } from './schema';
import { getSiteSecret } from './site-secret';

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

  it('is generated once and stored in the embedded database when FORM_SECRET is not set', async () => {
    const [first, second] = await Promise.all([
      getSiteSecret(database.db),
      getSiteSecret(database.db, undefined),
    ]);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).toBe(first);
    expect(await database.db.select().from(appSecrets)).toMatchObject([
      { name: 'site', value: first },
    ]);
    expect(await getSiteSecret(database.db)).toBe(first);
  });
});
