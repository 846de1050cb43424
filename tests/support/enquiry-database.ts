import { afterAll, beforeAll, beforeEach } from 'vitest';
import { jobs } from '@/server/delivery/queue/schema';
import { leads } from '@/server/features/contact/schema';
import { submitEnquiry } from '@/server/features/contact/submit';
import { rateLimits } from '@/server/platform/rate-limit/schema';
import type { Db } from '@/server/platform/db/client';
import { openTestDatabase, type Backend, type TestDatabase } from './databases';
import { deps, formData, request } from './enquiry';

/**
 * A test database for the enclosing `describe` on `kind` (PGlite or PostgreSQL): opened before
 * its tests, disposed after, and emptied of enquiries, their jobs (they belong to their enquiry by
 * `owner` only, no foreign key) and the rate-limit windows before each test.
 * @returns the database (`db`, read once the tests run) and `submit`, which posts values through
 *   the real enquiry pipeline (submitEnquiry) with a valid form token
 */
export function useEnquiryDatabase(kind: Backend['kind']): {
  readonly db: Db;
  submit: (values: Parameters<typeof formData>[0]) => ReturnType<typeof submitEnquiry>;
} {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    await database!.db.delete(jobs);
    await database!.db.delete(leads);
    await database!.db.delete(rateLimits);
  });
  return {
    get db() {
      return database!.db;
    },
    submit: (values) => submitEnquiry(formData(values), request(), deps(database!.db)),
  };
}
