import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from './schema';
import { submitEnquiry } from '../../features/contact/submit';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { deps, formData, request, testWorker, until } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('stopping the queue worker', backend), () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      smtp = await startSmtpServer({ delayMs: 500 });
    });
    afterAll(async () => {
      await smtp?.close();
      await database?.dispose();
    });

    it('finishes the sends in progress, leaves the other jobs pending and unclaimed, and a restart sends each once', async () => {
      for (let i = 0; i < 5; i++)
        await submitEnquiry(formData({ subject: `Stop ${i}` }), request(), deps(database.db));
      const first = testWorker(database.db, smtp.url);
      first.start();
      await until(async () =>
        (await database.db.select().from(jobs)).some((job) => job.status === 'sending'),
      );
      const stopping = Date.now();
      await first.stop();
      const stoppedAfter = Date.now() - stopping;
      const rows = await database.db.select().from(jobs);
      const sent = rows.filter((job) => job.status === 'sent').length;
      expect(rows.filter((job) => job.status === 'sending')).toHaveLength(0);
      // Claims are taken one job at a time, just before its send: the jobs not started were never
      // claimed, so they are pending, due now, with no attempt counted.
      const handedBack = rows.filter((job) => job.status === 'pending');
      expect(sent + handedBack.length).toBe(5);
      expect(
        handedBack.every(
          (job) =>
            job.attempts === 0 && job.claimToken === null && job.runAt.getTime() <= Date.now(),
        ),
      ).toBe(true);
      expect(smtp.received).toHaveLength(sent);

      const second = testWorker(database.db, smtp.url);
      await second.drain();
      const ids = smtp.received.map((mail) => mail.parsed.messageId);
      console.log(
        `worker stop [${backend.kind}]: stopped after ${stoppedAfter} ms with ${sent} sent and ${handedBack.length} handed back; after restart ${ids.length} e-mails, ${new Set(ids).size} distinct`,
      );
      expect(stoppedAfter).toBeLessThan(5_000);
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
    });
  });
}
