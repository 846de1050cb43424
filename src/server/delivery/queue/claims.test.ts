import '@test/quiet-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { jobs } from './schema';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { until } from '@test/enquiry';
import { claimNext, markRetry, markSent, releaseAllClaims, renewClaim } from './claims';
import { enqueue } from './enqueue';
import { defineJob, handle } from './job';
import { acknowledgeFailed, requeueFailed } from './operations';
import { readBacklog } from './summary';
import { createWorker } from './worker';

/** A job kind of the test's own: the queue knows no feature. */
const pingJob = defineJob('test.ping', z.object({ n: z.number().int() }));

const soon = () => new Date(Date.now() + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('the job queue', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(() => database?.dispose());
    beforeEach(async () => {
      await database.db.delete(jobs);
    });

    it('validates the payload when enqueued and keeps one job per deduplication key', async () => {
      const { db } = database;
      expect(await enqueue(db, pingJob, { n: 1 }, { dedupeKey: 'ping:1' })).toBe(true);
      expect(await enqueue(db, pingJob, { n: 2 }, { dedupeKey: 'ping:1' })).toBe(false);
      await expect(
        enqueue(db, pingJob, { n: 'x' } as unknown as { n: number }, { dedupeKey: 'ping:2' }),
      ).rejects.toThrow();
      expect(await db.select().from(jobs)).toMatchObject([
        { kind: 'test.ping', payload: { n: 1 } },
      ]);
    });

    it('fences every write with the claim: a worker whose claim expired and was taken over changes nothing', async () => {
      const { db } = database;
      await enqueue(db, pingJob, { n: 1 }, { dedupeKey: 'ping:1' });
      const late = (await claimNext(db, ['test.ping'], 60_000, soon()))!;
      expect(late.attempts).toBe(1);
      expect(await claimNext(db, ['test.ping'], 60_000, soon())).toBeNull(); // held
      // Its lease runs out without a renewal (the worker stalled or died).
      await db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` });
      const owner = (await claimNext(db, ['test.ping'], 60_000, soon()))!;
      expect(owner).toMatchObject({ id: late.id, attempts: 2 });
      expect(await renewClaim(db, late, 60_000)).toBe(false);
      expect(await markRetry(db, late, 0, 'late')).toBe(false);
      expect(await markSent(db, late)).toBe(false);
      const [held] = await db.select().from(jobs);
      expect(held).toMatchObject({ status: 'sending', claimToken: owner.token, lastError: null });
      expect(await renewClaim(db, owner, 60_000)).toBe(true);
      expect(await markSent(db, owner)).toBe(true);
      expect((await db.select().from(jobs))[0]).toMatchObject({ status: 'sent', claimToken: null });
    });

    it('hands back every claim at once for a sole process (PGlite after a crash)', async () => {
      const { db } = database;
      await enqueue(db, pingJob, { n: 1 }, { dedupeKey: 'ping:1' });
      await claimNext(db, ['test.ping'], 300_000, soon());
      expect(await releaseAllClaims(db)).toBe(1);
      expect(await claimNext(db, ['test.ping'], 300_000, soon())).toMatchObject({ attempts: 2 });
    });

    it('renews a claim while a slow job runs, so no other worker takes it over', async () => {
      const { db } = database;
      await enqueue(db, pingJob, { n: 1 }, { dedupeKey: 'ping:1' });
      const runs: number[] = [];
      const slow = handle(pingJob, async ({ payload }) => {
        runs.push(payload.n);
        await sleep(2_500);
      });
      // Lease 1 s, renewed every 333 ms; the job runs two and a half leases long. The second
      // worker polls every 20 ms from the moment the first runs the job until the job is sent.
      const [a, b] = [0, 1].map(() => createWorker(db, [slow], { leaseMs: 1_000, pollMs: 20 }));
      a!.start();
      await until(async () => runs.length === 1);
      b!.start();
      await until(async () => (await db.select().from(jobs))[0]!.status === 'sent');
      await Promise.all([a!.stop(), b!.stop()]);
      expect(runs).toEqual([1]);
      expect(await db.select().from(jobs)).toMatchObject([{ status: 'sent', attempts: 1 }]);
    });

    it('does not count a job before its not-before time, measures lateness from it, and stops ringing once a failure is acknowledged', async () => {
      const { db } = database;
      const owner = '11111111-1111-4111-8111-111111111111';
      await enqueue(
        db,
        pingJob,
        { n: 1 },
        { dedupeKey: 'ping:later', notBefore: new Date(Date.now() + 3 * 86_400_000) },
      );
      await enqueue(db, pingJob, { n: 2 }, { dedupeKey: 'ping:now', owner });
      expect((await readBacklog(db))['test.ping']).toMatchObject({ due: 1, scheduled: 1 });
      // Created an hour ago, due for ten minutes: lateness counts the ten minutes only.
      await db
        .update(jobs)
        .set({
          createdAt: sql`now() - interval '1 hour'`,
          dueAt: sql`now() - interval '10 minutes'`,
        })
        .where(eq(jobs.dedupeKey, 'ping:now'));
      const late = (await readBacklog(db))['test.ping']!;
      expect(late.oldestDueSeconds).toBeGreaterThanOrEqual(600);
      expect(late.oldestDueSeconds).toBeLessThan(660);

      const failing = handle(
        pingJob,
        async () => {
          throw new Error('refused');
        },
        { retry: { maxAttempts: 1 } },
      );
      expect(await createWorker(db, [failing]).drain()).toBe(1);
      expect((await readBacklog(db))['test.ping']).toMatchObject({
        due: 0,
        failed: 1,
        scheduled: 1,
      });
      expect(await acknowledgeFailed(db, { owners: ['someone-else'] })).toBe(0);
      expect(await acknowledgeFailed(db, { owners: [owner] })).toBe(1);
      expect((await readBacklog(db))['test.ping']).toMatchObject({ failed: 0, acknowledged: 1 });
      expect(await requeueFailed(db, { owners: [owner] })).toBe(1);
      expect((await readBacklog(db))['test.ping']).toMatchObject({ due: 1, acknowledged: 0 });
    });

    it('marks a job whose stored payload no longer matches its kind failed, without running it', async () => {
      const { db } = database;
      await enqueue(db, pingJob, { n: 1 }, { dedupeKey: 'ping:1' });
      await db.update(jobs).set({ payload: { n: 'one' } });
      let ran = false;
      const worker = createWorker(db, [
        handle(pingJob, async () => {
          ran = true;
        }),
      ]);
      await worker.drain();
      expect(ran).toBe(false);
      expect(await db.select().from(jobs)).toMatchObject([
        { status: 'failed', lastError: 'payload does not match its kind' },
      ]);
    });
  });
}
