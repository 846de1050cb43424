import '@test/quiet-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { demoBookings } from '../features/demos/schema';
import { jobs } from '../delivery/queue/schema';
import { leads } from '../features/contact/schema';
import { privacyRequests } from '../features/privacy/schema';
import { rateLimits } from '../platform/rate-limit/schema';
import { submitEnquiry } from '../features/contact/submit';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { deps, formData, request } from '@test/enquiry';
import { csvCell } from '../features/contact/csv';
import {
  acknowledgeFailedNotifications,
  deleteLeadsByEmail,
  exportLeadsCsv,
  listLeads,
  listSpam,
  PRIVACY_TOMBSTONE_DAYS,
  purgeExpired,
  releaseSpam,
  retryFailedNotifications,
  type LeadSummary,
} from './lead-operations';

describe('csvCell', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['+SUM(A1)', `"'+SUM(A1)"`],
    ['-2', `"'-2"`],
    ['@cmd', `"'@cmd"`],
    ['\tTab', `"'\tTab"`],
    ['\rCR', `"'\rCR"`],
    ['say "hi", ok', `"say ""hi"", ok"`],
    ['line\nbreak', `"line\nbreak"`],
    ['plain', `"plain"`],
  ])('writes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('operator commands', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(() => database?.dispose());
    beforeEach(async () => {
      // Jobs belong to their enquiry by `owner` only (no foreign key): cleared with the enquiries.
      await database.db.delete(jobs);
      await database.db.delete(leads);
      await database.db.delete(rateLimits);
    });

    const submit = (values: Parameters<typeof formData>[0]) =>
      submitEnquiry(formData(values), request(), deps(database.db));

    it('exports CSV with formula cells neutralised and quotes escaped', async () => {
      await submit({
        firstName: '=HYPERLINK("http://x.example","click")',
        organization: '+cmd|calc',
        subject: '@SUM(1)',
        message: '-1\n"quoted"',
      });
      const csv = await exportLeadsCsv(database.db);
      const [header, row] = csv.split('\r\n');
      expect(header).toBe(
        '"Reference","Received (UTC)","First Name","Last Name","Email","Organization","Subject","Message","Delivery"',
      );
      expect(row).toContain(`"'=HYPERLINK(""http://x.example"",""click"")"`);
      expect(row).toContain(`"'+cmd|calc"`);
      expect(row).toContain(`"'@SUM(1)"`);
      expect(row).toContain(`"'-1\n""quoted"""`);
      expect(row).toMatch(/"email pending"$/);
    });

    it('deletes every enquiry and job of one address, case-insensitively, and nothing else', async () => {
      await submit({ email: 'asha@hospital.example' });
      await submit({ email: 'Asha@Hospital.Example' });
      await submit({ email: 'other@hospital.example' });
      expect(await deleteLeadsByEmail(database.db, ' ASHA@hospital.example ')).toEqual({
        outcome: 'erased',
        leads: 2,
        jobs: 2,
        cancelled: 0,
      });
      const rest = await listLeads(database.db);
      expect(rest.map((row) => row.email)).toEqual(['other@hospital.example']);
      expect(await database.db.select().from(jobs)).toHaveLength(1);
      const leftovers = await database.db
        .select()
        .from(leads)
        .where(eq(leads.email, 'asha@hospital.example'));
      expect(leftovers).toHaveLength(0);
      expect(JSON.stringify(await exportLeadsCsv(database.db))).not.toMatch(/asha@/i);
    });

    it('re-queues failed notifications', async () => {
      await submit({});
      await database.db.update(jobs).set({ status: 'failed', attempts: 3, lastError: 'Error 550' });
      expect(await retryFailedNotifications(database.db)).toBe(1);
      expect(await database.db.select().from(jobs)).toMatchObject([
        { status: 'pending', attempts: 0 },
      ]);
    });

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

    const quarantine = (values: Parameters<typeof formData>[0]) =>
      submitEnquiry(formData(values, { honeypot: 'x' }), request(), deps(database.db));

    it('leaves quarantined enquiries out of list and export unless asked, and lists them for review without the body', async () => {
      await submit({ subject: 'real' });
      await quarantine({ subject: 'spammy', message: 'Buy now' });
      expect((await listLeads(database.db)).map((row) => row.subject)).toEqual(['real']);
      expect(
        (await listLeads(database.db, { includeSpam: true }))
          .map((row) => [row.subject, row.verdict])
          .sort(),
      ).toEqual([
        ['real', 'lead'],
        ['spammy', 'spam'],
      ]);
      expect(await exportLeadsCsv(database.db)).not.toContain('spammy');
      const withSpam = (await exportLeadsCsv(database.db, { includeSpam: true })).split('\r\n');
      expect(withSpam[0]).toMatch(/"Delivery","Verdict"$/);
      expect(withSpam.find((line) => line.includes('spammy'))).toMatch(/"spam"$/);

      const [spam] = await listSpam(database.db);
      expect(spam).toEqual({
        reference: expect.stringMatching(/^NH-/),
        createdAt: expect.any(Date),
        reason: 'honeypot',
        email: expect.any(String),
        subject: 'spammy',
      });
      expect((await listSpam(database.db, { withMessage: true }))[0]!.message).toBe('Buy now');
      // Released: queued like any lead, the e-mail and one job per webhook endpoint.
      expect(
        await releaseSpam(database.db, spam!.reference, {
          webhookUrls: ['https://crm.example/hook'],
        }),
      ).toBe('released');
      expect(await listSpam(database.db)).toEqual([]);
      const summary = (rows: LeadSummary[]) =>
        rows
          .map((row) => [
            row.subject,
            row.deliveries.map((job) => `${job.channel} ${job.status}`).join(', '),
          ])
          .sort();
      expect(summary(await listLeads(database.db))).toEqual([
        ['real', 'email pending'],
        ['spammy', 'email pending, webhook pending'],
      ]);
    });

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
  });
}
