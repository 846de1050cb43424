import { rm } from 'node:fs/promises';
import { submitEnquiry } from '@/server/features/contact/submit';
import { embeddedDataDir } from '@/server/platform/db/client';
import { openTestDatabase } from '@test/databases';
import { deps, formData, request, TEST_SECRET, LEADS_TO } from '@test/enquiry';

/** Where a production server under test keeps its enquiries, with the environment that points it there. */
export type SiteData = {
  kind: 'pglite' | 'postgres';
  /** DATA_DIR or DATABASE_URL (and the form secret the seeded enquiries were signed with). */
  env: Record<string, string>;
  /** Drops the PostgreSQL test database, or removes the PGlite data folder (after the servers stop). */
  dispose(): Promise<void>;
};

/**
 * A fresh database for a server under test with `pending` enquiries already stored (each with a
 * pending notification job): PGlite in a new temporary DATA_DIR (closed again, so the server can
 * lock it), or a new database on TEST_DATABASE_URL.
 */
export async function seedSiteData(kind: SiteData['kind'], pending: number): Promise<SiteData> {
  const database = await openTestDatabase(kind);
  const dataDir = embeddedDataDir(database.db);
  const submission = deps(database.db, { rateLimit: { max: 1_000, windowMs: 600_000 } });
  for (let i = 0; i < pending; i++) {
    await submitEnquiry(
      formData({ subject: `Seeded enquiry ${i + 1}` }),
      request('10.9.9.9'),
      submission,
    );
  }
  if (dataDir) await database.close();
  const where: Record<string, string> = dataDir
    ? { DATA_DIR: dataDir, DATABASE_URL: '' }
    : { DATABASE_URL: database.url! };
  return {
    kind,
    env: { ...where, FORM_SECRET: TEST_SECRET, LEADS_TO },
    // PGlite's folder (closed above, so the site could open it) is removed; PostgreSQL's database dropped.
    dispose: () => (dataDir ? rm(dataDir, { recursive: true, force: true }) : database.dispose()),
  };
}
