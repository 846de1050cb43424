import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { submitEnquiry } from '@/server/features/contact/submit';
import { openDatabase, type Database } from '@/server/platform/db/client';
import { openTestDatabase } from '@test/databases';
import { deps, formData, request, TEST_SECRET, LEADS_TO } from '@test/enquiry';

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
  const dataDir = kind === 'pglite' ? await mkdtemp(path.join(tmpdir(), 'nirmaya-site-')) : '';
  const postgres = kind === 'postgres' ? await openTestDatabase('postgres') : undefined;
  const database: Database = postgres ?? (await openDatabase({ dataDir }));
  if (!postgres) await database.migrate();
  const submission = deps(database.db, { rateLimit: { max: 1_000, windowMs: 600_000 } });
  for (let i = 0; i < pending; i++) {
    await submitEnquiry(
      formData({ subject: `Seeded enquiry ${i + 1}` }),
      request('10.9.9.9'),
      submission,
    );
  }
  if (!postgres) await database.close();
  const where: Record<string, string> = postgres
    ? { DATABASE_URL: postgres.url! }
    : { DATA_DIR: dataDir, DATABASE_URL: '' };
  return {
    kind,
    env: { ...where, FORM_SECRET: TEST_SECRET, LEADS_TO },
    dispose: async () => {
      await postgres?.dispose();
    },
  };
}
