import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type { Database } from '../../platform/db/client';
import { jobs } from './schema';
import { leads } from '../../features/contact/schema';
import { submitEnquiry } from '../../features/contact/submit';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { deps, formData, request, testWorker } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('concurrent submissions', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(() => database?.dispose());

    it('stores all of 100 concurrent submissions, each with one job', async () => {
      const states = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          submitEnquiry(formData({ subject: `Concurrent ${i}` }), request(), deps(database.db)),
        ),
      );
      expect(states.every((state) => state.status === 'accepted')).toBe(true);
      expect(
        new Set(states.map((state) => state.status === 'accepted' && state.reference)).size,
      ).toBe(100);
      expect((await database.db.select({ n: count() }).from(leads))[0]!.n).toBe(100);
      expect((await database.db.select({ n: count() }).from(jobs))[0]!.n).toBe(100);
    });
  });
}

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

describe.skipIf(postgres.skipReason)(
  backendTitle('two queue workers on one database', postgres),
  () => {
    let database: TestDatabase;
    let second: Database;
    let smtp: TestSmtpServer;
    beforeAll(async () => {
      database = await openTestDatabase('postgres');
      second = await openSecondHandle(database.url!);
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await smtp?.close();
      await second?.close();
      await database?.dispose();
    });

    it('sends each job exactly once', async () => {
      for (let i = 0; i < 60; i++) {
        await submitEnquiry(formData({ subject: `Job ${i}` }), request(), deps(database.db));
      }
      const [first, other] = [testWorker(database.db, smtp.url), testWorker(second.db, smtp.url)];
      const handled = await Promise.all([first.drain(), other.drain()]);
      expect(handled[0] + handled[1]).toBe(60);
      expect(handled[0]).toBeGreaterThan(0);
      expect(handled[1]).toBeGreaterThan(0);
      expect(smtp.received).toHaveLength(60);
      expect(new Set(smtp.received.map((mail) => mail.parsed.messageId)).size).toBe(60);
      const rows = await database.db.select().from(jobs);
      expect(rows).toHaveLength(60);
      expect(rows.every((job) => job.status === 'sent' && job.attempts === 1)).toBe(true);
    });
  },
);
