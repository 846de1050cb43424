import '@test/quiet-logs';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { jobs } from '../delivery/queue/schema';
import { privacyRequests } from '../features/privacy/schema';
import { backends, backendTitle } from '@test/databases';
import { useEnquiryDatabase } from '@test/enquiry-database';
import { acknowledgeFailedNotifications, retryFailedNotifications } from './delivery-retry';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('retrying and acknowledging deliveries by reference', backend),
    () => {
      const database = useEnquiryDatabase(backend.kind);
      const { submit } = database;

      it('re-queues failed notifications', async () => {
        await submit({});
        await database.db
          .update(jobs)
          .set({ status: 'failed', attempts: 3, lastError: 'Error 550' });
        expect(await retryFailedNotifications(database.db)).toBe(1);
        expect(await database.db.select().from(jobs)).toMatchObject([
          { status: 'pending', attempts: 0 },
        ]);
      });

      it('acknowledges and retries the failed deliveries of a privacy request by its reference', async () => {
        const requestId = randomUUID();
        await database.db.delete(privacyRequests);
        await database.db.insert(privacyRequests).values({
          id: requestId,
          reference: 'PR-ACKNOWLEDGE',
          kind: 'grievance',
          linkNonce: randomUUID(),
          emailHash: 'hash',
          status: 'closed',
          requestedAt: new Date(),
          verifiedAt: new Date(),
          dueAt: new Date(Date.now() + 90 * 86_400_000),
          closedAt: new Date(),
        });
        await database.db.insert(jobs).values({
          id: randomUUID(),
          kind: 'privacy.reply',
          payload: {},
          dedupeKey: `privacy.reply:${requestId}`,
          owner: requestId,
          status: 'failed',
          lastError: 'Error 550',
        });
        expect(await acknowledgeFailedNotifications(database.db, ' pr-acknowledge ')).toBe(1);
        expect(await acknowledgeFailedNotifications(database.db, 'PR-ACKNOWLEDGE')).toBe(0);
        expect(await acknowledgeFailedNotifications(database.db, 'PR-NOSUCHONE')).toBeNull();
        expect(await retryFailedNotifications(database.db, 'PR-ACKNOWLEDGE')).toBe(1);
        expect(await database.db.select().from(jobs)).toMatchObject([{ status: 'pending' }]);
      });
    },
  );
}
