import '@test/quiet-logs';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { demoBookings } from '../features/demos/schema';
import { jobs } from '../delivery/queue/schema';
import { leads } from '../features/contact/schema';
import { privacyRequests } from '../features/privacy/schema';
import { rateLimits } from '../platform/rate-limit/schema';
import { submitEnquiry } from '../features/contact/submit';
import { backends, backendTitle } from '@test/databases';
import { useEnquiryDatabase } from '@test/enquiry-database';
import { deps, formData, request } from '@test/enquiry';
import { listLeads } from '../features/contact/inbox';
import { releaseSpam } from '../features/contact/quarantine';
import { PRIVACY_TOMBSTONE_DAYS } from '../features/privacy/retention';
import { purgeExpired } from './personal-data';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('the daily purge over every registration', backend),
    () => {
      const database = useEnquiryDatabase(backend.kind);
      const { submit } = database;

      it('purges enquiries older than the retention period with their jobs', async () => {
        await submit({ subject: 'old' });
        await submit({ subject: 'new' });
        await database.db
          .update(leads)
          .set({ createdAt: new Date(Date.now() - 366 * 86_400_000) })
          .where(eq(leads.subject, 'old'));
        expect(await purgeExpired(database.db, 365)).toBe(1);
        expect((await listLeads(database.db)).map((row) => row.subject)).toEqual(['new']);
        expect(await database.db.select().from(jobs)).toHaveLength(1);
        expect(await purgeExpired(database.db, 365, new Date(Date.now() + 2 * 86_400_000))).toBe(0);
        expect(await database.db.select().from(rateLimits)).toHaveLength(0);
      });

      it('keeps the tombstone of an answered privacy request 3 years, and an open request until it is answered', async () => {
        const day = 86_400_000;
        const now = Date.now();
        const request = (reference: string, closedDaysAgo: number | null) => ({
          id: randomUUID(),
          reference,
          kind: 'grievance' as const,
          linkNonce: randomUUID(),
          emailHash: 'hash',
          status: closedDaysAgo === null ? ('open' as const) : ('closed' as const),
          requestedAt: new Date(now - 2_000 * day),
          verifiedAt: new Date(now - 2_000 * day),
          dueAt: new Date(now - 1_910 * day),
          closedAt: closedDaysAgo === null ? null : new Date(now - closedDaysAgo * day),
        });
        await database.db.delete(privacyRequests);
        await database.db
          .insert(privacyRequests)
          .values([
            request('PR-EXPIRED', PRIVACY_TOMBSTONE_DAYS + 1),
            request('PR-RECENT', PRIVACY_TOMBSTONE_DAYS - 1),
            request('PR-OPEN', null),
          ]);
        await purgeExpired(database.db, 365);
        const kept = await database.db
          .select({ reference: privacyRequests.reference })
          .from(privacyRequests)
          .orderBy(privacyRequests.reference);
        expect(kept.map((row) => row.reference)).toEqual(['PR-OPEN', 'PR-RECENT']);
      });

      it('forgets the client hash of a demo once it is over, and keeps it for an upcoming one', async () => {
        await submit({ subject: 'booked' });
        const [lead] = await database.db.select().from(leads);
        const hour = 3_600_000;
        const booking = (startsIn: number) => ({
          id: randomUUID(),
          leadId: lead!.id,
          hostEmail: `host${startsIn}@nirmaya.example`,
          startsAt: new Date(Date.now() + startsIn * hour),
          endsAt: new Date(Date.now() + (startsIn + 1) * hour),
          status: 'cancelled' as const,
          clientHash: 'client-hash',
        });
        await database.db.insert(demoBookings).values([booking(-3), booking(24)]);
        await purgeExpired(database.db, 365);
        const rows = await database.db
          .select({ startsAt: demoBookings.startsAt, clientHash: demoBookings.clientHash })
          .from(demoBookings)
          .orderBy(demoBookings.startsAt);
        expect(rows.map((row) => row.clientHash)).toEqual([null, 'client-hash']);
      });

      const quarantine = (values: Parameters<typeof formData>[0]) =>
        submitEnquiry(formData(values, { honeypot: 'x' }), request(), deps(database.db));

      it('purges spam never released after the spam retention, and released spam like a lead', async () => {
        await submit({ subject: 'lead' });
        await quarantine({ subject: 'spam' });
        await quarantine({ subject: 'released' });
        const [released] = await database.db
          .select()
          .from(leads)
          .where(eq(leads.subject, 'released'));
        await releaseSpam(database.db, released!.reference, { webhookUrls: [] });
        await database.db.update(leads).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) });
        expect(await purgeExpired(database.db, { leadsDays: 365, spamDays: 30 })).toBe(1);
        expect(
          (await listLeads(database.db, { includeSpam: true })).map((row) => row.subject).sort(),
        ).toEqual(['lead', 'released']);
        expect(await purgeExpired(database.db, { leadsDays: 30, spamDays: 30 })).toBe(2);
      });
    },
  );
}
