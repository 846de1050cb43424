import '@test/quiet-logs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { fastRetry, LEADS_FROM } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { consoleNav } from '@/content/console';
import { site } from '@/content/site';
import { listAudit, type Actor } from '../../platform/audit';
import { addOperator, ensureAdmins, findOperator } from '../console/operators';
import { auditLog } from '../../platform/audit/schema';
import { jobs } from '../../delivery/queue/schema';
import { operators } from '../console/schema';
import { privacyRequests, type PrivacyRequestKind } from './schema';
import { startDeliveryMonitor } from '../../wiring/delivery-monitor';
import { createSmtpSender } from '../../delivery/email/transport';
import { assessReadiness } from '../../wiring/readiness';
import { log } from '../../platform/log';
import { handle } from '../../delivery/queue/job';
import { createWorker } from '../../delivery/queue/worker';
import { forgetSentReplies, privacyReplyJob, sendPrivacyReply } from './reply';
import {
  assignPrivacyRequest,
  listPrivacyRequests,
  readPrivacySummary,
  replyToPrivacyRequest,
  viewPrivacyRequest,
} from './handling';

const DAY_MS = 86_400_000;
const admin: Actor = { email: 'boss@nirmaya.example', role: 'admin' };
const otherAdmin: Actor = { email: 'dpo@nirmaya.example', role: 'admin' };
const sales: Actor = { email: 'sam@nirmaya.example', role: 'sales' };
const person = 'asha.rao@hospital.example';
const officer = site.grievanceOfficer;
const alarmEnv = { DELIVERY_ALERT_MINUTES: 15, PRIVACY_DUE_ALERT_DAYS: 7 };

/**
 * Inserts a verified request as the visitor side does: due 90 days after verification (DPDP Rules
 * 2025, rule 14), here placed so that it is due `dueInDays` days from now.
 */
async function addRequest(
  db: TestDatabase['db'],
  reference: string,
  {
    kind = 'grievance',
    dueInDays,
    status = 'open',
    details = 'My enquiry was answered by someone who shared it with a third party.',
  }: {
    kind?: PrivacyRequestKind;
    dueInDays: number;
    status?: 'open' | 'closed';
    details?: string;
  },
): Promise<void> {
  const dueAt = new Date(Date.now() + dueInDays * DAY_MS);
  const verifiedAt = new Date(dueAt.getTime() - 90 * DAY_MS);
  await db.insert(privacyRequests).values({
    id: randomUUID(),
    reference,
    kind,
    linkNonce: randomUUID(),
    emailHash: `hash-${reference}`,
    email: status === 'open' ? person : null,
    details: status === 'open' ? details : null,
    status,
    requestedAt: new Date(verifiedAt.getTime() - 60_000),
    verifiedAt,
    dueAt,
    closedAt: status === 'closed' ? new Date() : null,
    outcome: status === 'closed' ? 'erased 1 enquiry' : null,
  });
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('privacy requests in the console', backend),
    () => {
      let database: TestDatabase;
      let smtp: TestSmtpServer;

      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        smtp = await startSmtpServer();
      });
      afterAll(async () => {
        await smtp?.close();
        await database?.dispose();
      });
      beforeEach(async () => {
        const { db } = database;
        for (const table of [jobs, privacyRequests, auditLog, operators]) await db.delete(table);
        await ensureAdmins(db, [admin.email, otherAdmin.email]);
        await addOperator(db, admin, sales.email, 'sales');
        await db.delete(auditLog);
        smtp.received.length = 0;
      });

      it('lists open requests earliest due first, and closed ones apart as tombstones', async () => {
        const { db } = database;
        await addRequest(db, 'PR-LATER00001', { kind: 'correct', dueInDays: 60 });
        await addRequest(db, 'PR-SOON000001', { dueInDays: 5 });
        await addRequest(db, 'PR-OVERDUE001', { kind: 'nominate', dueInDays: -1 });
        await addRequest(db, 'PR-CLOSED0001', { kind: 'erase', dueInDays: 3, status: 'closed' });

        const open = await listPrivacyRequests(db, admin, { status: 'open' });
        expect(open.map((row) => row.reference)).toEqual([
          'PR-OVERDUE001',
          'PR-SOON000001',
          'PR-LATER00001',
        ]);
        for (const row of open)
          expect(row.dueAt.getTime() - row.verifiedAt.getTime()).toBe(90 * DAY_MS);
        // The list carries no address nor the person's words.
        expect(JSON.stringify(open)).not.toContain(person);
        expect(open[0]).not.toHaveProperty('details');

        const closed = await listPrivacyRequests(db, admin, { status: 'closed' });
        expect(closed).toMatchObject([
          { reference: 'PR-CLOSED0001', kind: 'erase', outcome: 'erased 1 enquiry' },
        ]);

        const detail = await viewPrivacyRequest(db, admin, ' pr-soon000001 ');
        expect(detail).toMatchObject({ status: 'open', email: person, kind: 'grievance' });
        expect(await viewPrivacyRequest(db, admin, 'PR-CLOSED0001')).toMatchObject({
          status: 'closed',
          email: null,
          details: null,
        });
        expect(await viewPrivacyRequest(db, admin, 'PR-NOPE')).toBeUndefined();
        // Only opening a request that shows personal data is audited.
        const audit = (await listAudit(db, {})).rows.map((row) => [
          row.actor,
          row.action,
          row.subject,
        ]);
        expect(audit).toEqual([[admin.email, 'privacy-view', 'PR-SOON000001']]);
      });

      it('assigns an open request to an admin only, with audit rows', async () => {
        const { db } = database;
        await addRequest(db, 'PR-ASSIGN0001', { dueInDays: 40 });
        await addRequest(db, 'PR-CLOSED0002', { dueInDays: 40, status: 'closed' });
        expect(
          await assignPrivacyRequest(db, admin, 'PR-ASSIGN0001', admin.email, findOperator),
        ).toBe('assigned');
        expect(
          await assignPrivacyRequest(db, admin, 'PR-ASSIGN0001', admin.email, findOperator),
        ).toBe('unchanged');
        expect(
          await assignPrivacyRequest(
            db,
            admin,
            'pr-assign0001',
            'DPO@nirmaya.example',
            findOperator,
          ),
        ).toBe('assigned');
        expect(
          await assignPrivacyRequest(db, admin, 'PR-ASSIGN0001', sales.email, findOperator),
        ).toBe('invalid');
        expect(
          await assignPrivacyRequest(
            db,
            admin,
            'PR-ASSIGN0001',
            'x@elsewhere.example',
            findOperator,
          ),
        ).toBe('invalid');
        expect(
          await assignPrivacyRequest(db, admin, 'PR-CLOSED0002', admin.email, findOperator),
        ).toBe('closed');
        expect(await assignPrivacyRequest(db, admin, 'PR-NOPE', admin.email, findOperator)).toBe(
          'not-found',
        );
        const [row] = await listPrivacyRequests(db, admin, { status: 'open' });
        expect(row?.assignedTo).toBe(otherAdmin.email);
        const audit = (await listAudit(db, {})).rows.map((entry) => [
          entry.actor,
          entry.action,
          entry.subject,
          entry.detail,
        ]);
        expect(audit).toEqual([
          [admin.email, 'privacy-assign', 'PR-ASSIGN0001', otherAdmin.email],
          [admin.email, 'privacy-assign', 'PR-ASSIGN0001', admin.email],
        ]);
      });

      it('e-mails the reply through the queue and leaves a tombstone, once', async () => {
        const { db } = database;
        await addRequest(db, 'PR-REPLY00001', { kind: 'correct', dueInDays: 80 });
        expect(await replyToPrivacyRequest(db, otherAdmin, 'PR-REPLY00001', '   ')).toBe('invalid');
        expect(await replyToPrivacyRequest(db, otherAdmin, 'PR-REPLY00001', 'bell\u0007')).toBe(
          'invalid',
        );
        const answer = 'We corrected your organisation to "St. Mary\'s Hospital".\nRegards,\nPriya';
        expect(await replyToPrivacyRequest(db, otherAdmin, 'PR-REPLY00001', answer)).toBe(
          'replied',
        );
        expect(await replyToPrivacyRequest(db, admin, 'PR-REPLY00001', 'Again')).toBe('closed');
        expect(await replyToPrivacyRequest(db, admin, 'PR-NOPE', 'Hello')).toBe('not-found');

        const [tombstone] = await db
          .select()
          .from(privacyRequests)
          .where(eq(privacyRequests.reference, 'PR-REPLY00001'));
        expect(tombstone).toMatchObject({
          status: 'closed',
          email: null,
          details: null,
          outcome: 'answered',
          assignedTo: otherAdmin.email,
          kind: 'correct',
        });
        expect(tombstone?.closedAt).toBeInstanceOf(Date);
        const queued = await db.select().from(jobs);
        expect(queued).toMatchObject([
          { kind: 'privacy.reply', owner: tombstone!.id, status: 'pending' },
        ]);

        const worker = createWorker(
          db,
          [
            handle(
              privacyReplyJob,
              sendPrivacyReply(createSmtpSender(smtp.url), {
                from: LEADS_FROM,
                replyTo: { name: officer.name, address: officer.email },
              }),
              fastRetry,
            ),
          ],
          { pollMs: 50 },
        );
        expect(await worker.drain()).toBe(1);
        expect(await worker.drain()).toBe(0);
        expect(smtp.received).toHaveLength(1);
        const mail = smtp.received[0]!;
        expect(mail.envelope.to).toEqual([person]);
        expect(mail.parsed.from?.address).toBe('no-reply@nirmaya.example');
        expect(mail.parsed.replyTo).toEqual([{ name: officer.name, address: officer.email }]);
        expect(mail.parsed.subject).toBe('Your privacy request PR-REPLY00001');
        expect(mail.parsed.html).toBeUndefined();
        expect(mail.parsed.text).toContain(answer);
        expect(mail.parsed.text).toContain('PR-REPLY00001');
        expect(mail.parsed.messageId).toBe('<privacy.reply.PR-REPLY00001@nirmaya.example>');
        expect((await db.select().from(jobs))[0]).toMatchObject({ status: 'sent' });
        // The daily purge forgets the sent reply (its payload held the address and the text).
        expect(await forgetSentReplies(db)).toBe(1);
        expect(await db.select().from(jobs)).toEqual([]);

        const audit = await listAudit(db, {});
        expect(audit.rows.map((row) => [row.actor, row.action, row.subject, row.detail])).toEqual([
          [otherAdmin.email, 'privacy-reply', 'PR-REPLY00001', 'correct'],
        ]);
        expect(JSON.stringify(audit.rows)).not.toContain(person);
        expect(await listPrivacyRequests(db, admin, { status: 'open' })).toEqual([]);
      });

      it('lets only admins see or act on requests', async () => {
        const { db } = database;
        await addRequest(db, 'PR-SALES00001', { dueInDays: 10 });
        const refused = /admins only/;
        await expect(listPrivacyRequests(db, sales, { status: 'open' })).rejects.toThrow(refused);
        await expect(viewPrivacyRequest(db, sales, 'PR-SALES00001')).rejects.toThrow(refused);
        await expect(
          assignPrivacyRequest(db, sales, 'PR-SALES00001', admin.email, findOperator),
        ).rejects.toThrow(refused);
        await expect(replyToPrivacyRequest(db, sales, 'PR-SALES00001', 'Hi')).rejects.toThrow(
          refused,
        );
        const [row] = await db.select().from(privacyRequests);
        expect(row).toMatchObject({ status: 'open', email: person, assignedTo: null });
        expect(await db.select().from(jobs)).toEqual([]);
        expect((await listAudit(db, {})).total).toBe(0);
        expect(consoleNav.find((item) => item.href === '/admin/privacy')?.adminOnly).toBe(true);
      });

      it('rings the health alarm for an open request due within 7 days, and only then', async () => {
        const { db } = database;
        const readiness = () => assessReadiness(db, alarmEnv);

        await addRequest(db, 'PR-LATER00002', { dueInDays: 30 });
        await addRequest(db, 'PR-CLOSED0003', { dueInDays: 5, status: 'closed' });
        const quiet = await readiness();
        expect(quiet.assessment).toEqual({ status: 'ok', reasons: [] });
        expect(quiet.privacy).toMatchObject({ open: 1, dueSoon: 0, overdue: 0 });

        await addRequest(db, 'PR-GRIEVE0001', { dueInDays: 5 });
        const ringing = await readiness();
        expect(ringing.assessment).toEqual({
          status: 'degraded',
          reasons: ['privacy: 1 privacy request due within 7 days'],
        });
        expect(ringing.privacy).toMatchObject({ open: 2, dueSoon: 1, overdue: 0 });
        expect(Date.parse(ringing.privacy.oldestDueAt!) - Date.now()).toBeGreaterThan(4.9 * DAY_MS);

        // Answered: the alarm clears.
        expect(await replyToPrivacyRequest(db, admin, 'PR-GRIEVE0001', 'We looked into it.')).toBe(
          'replied',
        );
        expect((await readiness()).assessment.status).toBe('ok');
        expect(await readPrivacySummary(db, 7)).toMatchObject({ open: 1, dueSoon: 0 });
      });

      it('logs privacy.due_soon once when the alarm starts and privacy.due_cleared once when it ends', async () => {
        const { db } = database;
        const warn = vi.spyOn(log, 'warn');
        const monitor = startDeliveryMonitor(db, {
          intervalMs: 3_600_000,
          alertSeconds: 900,
          privacyAlertDays: 7,
        });
        try {
          const events = () =>
            warn.mock.calls
              .map(([facts]) => (facts as { event?: string }).event)
              .filter((event) => event?.startsWith('privacy.'));
          await monitor.check();
          await addRequest(db, 'PR-MONITOR001', { dueInDays: -3, kind: 'nominate' });
          await monitor.check();
          await monitor.check();
          expect(events()).toEqual(['privacy.due_soon']);
          expect(
            warn.mock.calls.find(([facts]) =>
              JSON.stringify(facts).includes('privacy.due_soon'),
            )?.[0],
          ).toMatchObject({ open: 1, overdue: 1, dueSoon: 0 });
          expect(JSON.stringify(warn.mock.calls)).not.toContain(person);
          await replyToPrivacyRequest(db, admin, 'PR-MONITOR001', 'Your nominee is recorded.');
          await monitor.check();
          await monitor.check();
          expect(events()).toEqual(['privacy.due_soon', 'privacy.due_cleared']);
        } finally {
          monitor.stop();
          warn.mockRestore();
        }
      });
    },
  );
}
