import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { submitEnquiry } from '@/server/contact/submit';
import { openDatabase } from '@/server/db/client';
import { openTestDatabase, type TestDatabase } from '@/server/test-support/databases';
import { deps, formData, request, TEST_SECRET, LEADS_TO } from '@/server/test-support/enquiry';

/** Where a production server under test keeps its enquiries, with the environment that points it there. */
export type SiteData = {
  kind: 'pglite' | 'postgres';
  /** DATA_DIR or DATABASE_URL (and the form secret the seeded enquiries were signed with). */
  env: Record<string, string>;
  /** Drops the PostgreSQL test database (a PGlite directory is left to the OS's temp cleanup). */
  dispose(): Promise<void>;
};

/**
 * A fresh database for a server under test with `pending` enquiries already stored (each with a
 * pending notification job): PGlite in a new temporary DATA_DIR (closed again, so the server can
 * lock it), or a new database on TEST_DATABASE_URL.
 */
export async function seedSiteData(kind: SiteData['kind'], pending: number): Promise<SiteData> {
  let database: TestDatabase | Awaited<ReturnType<typeof openDatabase>>;
  let env: Record<string, string>;
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-site-'));
    database = await openDatabase({ dataDir });
    await database.migrate();
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  } else {
    database = await openTestDatabase('postgres');
    env = { DATABASE_URL: database.url! };
  }
  const submission = deps(database.db, { rateLimit: { max: 1_000, windowMs: 600_000 } });
  for (let i = 0; i < pending; i++) {
    await submitEnquiry(
      formData({ subject: `Seeded enquiry ${i + 1}` }),
      request('10.9.9.9'),
      submission,
    );
  }
  if (kind === 'pglite') await database.close();
  return {
    kind,
    env: { ...env, FORM_SECRET: TEST_SECRET, LEADS_TO },
    dispose: async () => {
      if ('dispose' in database) await database.dispose();
    },
  };
}
