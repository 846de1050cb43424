import '@test/quiet-logs';
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import {
  LEADS_FROM,
  LEADS_TO,
  TEST_SECRET,
  deps,
  fastRetry,
  formData,
  freshToken,
  request,
  testWorker,
  until,
} from '@test/enquiry';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { submitEnquiry } from '../contact/submit';
import { jobs } from '../../delivery/queue/schema';
import { leads } from '../contact/schema';
import { privacyRequests } from './schema';
import { suppressions } from '../../platform/people/schema';
import { auditLog } from '../../platform/audit/schema';
import { bookDemo } from '../demos/commands/book';
import { demoMailJob, sendDemoMail } from '../demos/mails/mail-jobs';
import { createSmtpSender } from '../../delivery/email/transport';
import { withSuppressionGate } from '../../delivery/email/suppression-gate';
import { listLeads } from '../contact/inbox';
import { personalData } from '../../wiring/personal-data';
import { handle } from '../../delivery/queue/job';
import { createWebhookPoster } from '../../delivery/webhooks/sender';
import { addressHash } from '../../platform/people/address-hash';
import { askForPrivacyLink, type AskDeps } from './ask';
import { confirmPrivacyRequest } from './confirm';
import { honourPrivacyRequest } from './honour';
import { honourJob } from './honour-job';
import { privacyLinkJob, sendPrivacyLink } from './link-job';
import { decidePrivacyAsk, forgetSentLinks, privacyAskJob } from './ask-job';
import { leadErasedWebhookJob, postLeadErased } from './webhook';

const WEBHOOK_SECRET = `whsec_${Buffer.from('privacy-test-webhook-secret').toString('base64')}`;
const email = 'asha.rao@hospital.example';
const hour = 3_600_000;
/** A budget of mails to unproven addresses that these flows never reach. */
const budget = {
  perAddressPerDay: 10,
  perClientPerDay: 10,
  grievancesPerDay: 10,
  sitePerHour: 200,
};

/** The first bookable time two days from now: 10:00 IST (04:30Z), inside the test rules. */
function demoTime(): number {
  const day = new Date(Date.now() + 2 * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30);
}

/** The token of the confirmation link in a link e-mail. */
function tokenOf(mail: ReceivedMail): string {
  const match = /privacy-requests\/confirm\?token=([^\s]+)/.exec(mail.parsed.text ?? '');
  if (!match) throw new Error('no link in the e-mail');
  return decodeURIComponent(match[1]!);
}

/** Every text or jsonb cell of every table that contains `needle` (any case), as `table.column`. */
async function cellsContaining(database: TestDatabase, needle: string): Promise<string[]> {
  const columns = (await database.db.execute(
    sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'jsonb', 'character varying')`,
  )) as unknown as { rows: { table_name: string; column_name: string }[] };
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns.rows) {
    const result = (await database.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${needle}%`}`,
    )) as unknown as { rows: { n: number }[] };
    if (result.rows[0]!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('privacy requests: copy, erasure and suppression', backend),
    () => {
      let database: TestDatabase;
      let smtp: TestSmtpServer;
      let receiver: TestWebhookReceiver;
      const settings = () => testBookingSettings({ hosts: [meera], webhookUrls: [receiver.url] });
      /** The site's registrations of personal data, booking on, delivering to the test inbox. */
      const holders = () =>
        personalData({ settings: settings(), leadsTo: LEADS_TO, webhookUrls: [receiver.url] });

      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        smtp = await startSmtpServer();
        receiver = await startWebhookReceiver();
      });
      afterAll(async () => {
        await receiver?.close();
        await smtp?.close();
        await database?.dispose();
      });

      /** A worker running every job of the site: enquiry, demo and privacy e-mails and events. */
      const worker = () => {
        const secret = async () => TEST_SECRET;
        const send = withSuppressionGate(createSmtpSender(smtp.url), { db: database.db, secret });
        const from = { from: LEADS_FROM };
        const running = testWorker(database.db, smtp.url, { secret: WEBHOOK_SECRET }, [
          handle(
            demoMailJob,
            sendDemoMail(
              database.db,
              send,
              { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
              [meera],
              undefined,
            ),
            fastRetry,
          ),
          handle(
            privacyAskJob,
            decidePrivacyAsk({
              db: database.db,
              secret,
              mailBudget: budget,
              holders: holders(),
              onQueued: () => running.nudge(),
            }),
            fastRetry,
          ),
          handle(
            privacyLinkJob,
            sendPrivacyLink(secret, send, new URL('http://localhost:3000/'), from),
            fastRetry,
          ),
          handle(
            honourJob,
            honourPrivacyRequest({
              db: database.db,
              secret,
              send,
              from,
              webhookUrls: [receiver.url],
              holders: holders(),
              retryAfterMs: 20,
            }),
            fastRetry,
          ),
          handle(
            leadErasedWebhookJob,
            postLeadErased(createWebhookPoster(WEBHOOK_SECRET)),
            fastRetry,
          ),
        ]);
        return running;
      };

      const askDeps = (): AskDeps => ({
        db: database.db,
        secret: TEST_SECRET,
        rateLimit: { max: 5, windowMs: 600_000 },
        allowedOrigins: [],
        mailBudget: budget,
      });

      /** Posts the privacy form for `address` and `kind`; returns the page's answer. */
      async function ask(address: string, kind: string, details = '') {
        const form = new FormData();
        form.set('email', address);
        form.set('kind', kind);
        form.set('details', details);
        form.set(formTokenField, freshToken());
        form.set(honeypotField, '');
        return askForPrivacyLink(form, request(), askDeps());
      }

      const mailsTo = (address: string) =>
        smtp.received.filter((mail) =>
          mail.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()),
        );

      /** Asks, runs the queue, and returns the link e-mail's token. */
      async function linkFor(address: string, kind: string): Promise<string> {
        const before = mailsTo(address).length;
        expect((await ask(address, kind)).status).toBe('sent');
        await worker().drain();
        const mails = mailsTo(address);
        expect(mails).toHaveLength(before + 1);
        return tokenOf(mails.at(-1)!);
      }

      let leadId = '';
      let reference = '';

      it('gives a copy of everything held to its owner, and a stranger the same answer and no e-mail', async () => {
        const stored = await submitEnquiry(
          formData({ email }),
          request(),
          deps(database.db, { deliveries: { webhookUrls: [receiver.url] } }),
        );
        expect(stored.status).toBe('accepted');
        const [lead] = await database.db.select().from(leads).where(eq(leads.email, email));
        leadId = lead!.id;
        reference = lead!.reference;
        expect((await bookDemo(database.db, settings(), leadId, demoTime())).outcome).toBe(
          'booked',
        );
        await worker().drain();

        const stranger = await ask('nobody@elsewhere.example', 'copy');
        const owner = await ask('ASHA.Rao@hospital.example ', 'copy');
        expect(stranger).toEqual(owner);
        expect(owner).toEqual({ status: 'sent', message: expect.stringMatching(/^Thank you/) });
        await worker().drain();
        expect(mailsTo('nobody@elsewhere.example')).toEqual([]);
        const token = tokenOf(mailsTo(email).at(-1)!);

        // Opening the link changes nothing by itself: only the button's POST confirms.
        expect(await database.db.select().from(privacyRequests)).toEqual([]);
        const confirmed = await confirmPrivacyRequest(database.db, token, TEST_SECRET);
        expect(confirmed).toMatchObject({ outcome: 'confirmed', reference: /^PR-/ });
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET)).toEqual({
          outcome: 'used',
        });
        await worker().drain();

        const copy = mailsTo(email).at(-1)!;
        expect(copy.parsed.subject).toMatch(/^Your data at /);
        expect(copy.parsed.text).toContain('/privacy-requests');
        const attachment = copy.parsed.attachments.find(
          (part) => part.filename === 'your-data.json',
        )!;
        const data = JSON.parse(
          typeof attachment.content === 'string'
            ? attachment.content
            : new TextDecoder().decode(attachment.content),
        ) as {
          enquiries: { reference: string; email: string }[];
          demos: unknown[];
          deliveries: unknown[];
          sharedWith: string[];
        };
        expect(data.enquiries.map((enquiry) => [enquiry.reference, enquiry.email])).toEqual([
          [reference, email],
        ]);
        expect(data.demos).toMatchObject([{ reference, host: meera.email, status: 'booked' }]);
        expect(data.deliveries.length).toBeGreaterThanOrEqual(3);
        expect(data.sharedWith).toEqual([LEADS_TO, new URL(receiver.url).host, meera.email]);

        const rows = await database.db.select().from(privacyRequests);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          kind: 'copy',
          status: 'closed',
          email: null,
          details: null,
          outcome: 'copy sent: 1 enquiry, 1 demo',
          emailHash: addressHash(email, TEST_SECRET),
        });
        expect(rows[0]!.dueAt.getTime() - rows[0]!.verifiedAt.getTime()).toBe(90 * 24 * hour);
      });

      it('sends a grievance link to any address; confirmed, it is acknowledged and stays open for the console', async () => {
        const stranger = 'complainant@elsewhere.example';
        expect(await ask(stranger, 'grievance')).toMatchObject({
          status: 'invalid',
          errors: { details: expect.any(String) },
          values: { email: stranger, kind: 'grievance', details: '' },
        });
        const before = mailsTo(stranger).length;
        expect((await ask(stranger, 'grievance', 'You e-mailed me twice.')).status).toBe('sent');
        await worker().drain();
        const token = tokenOf(mailsTo(stranger)[before]!);
        const confirmed = await confirmPrivacyRequest(database.db, token, TEST_SECRET);
        expect(confirmed.outcome).toBe('confirmed');
        await worker().drain();
        const ack = mailsTo(stranger).at(-1)!;
        const { reference: pr } = confirmed as { reference: string };
        expect(ack.parsed.subject).toBe(`We have your request (${pr})`);
        expect(ack.parsed.text).toMatch(/answers it by \d{1,2} \w+ \d{4}/);
        const [row] = await database.db
          .select()
          .from(privacyRequests)
          .where(eq(privacyRequests.reference, pr));
        expect(row).toMatchObject({
          kind: 'grievance',
          status: 'open',
          email: stranger,
          details: 'You e-mailed me twice.',
        });
        // The console answers it (the other engineer's page); here it is closed so the erasure
        // test below can require every request of the address to be closed.
        await database.db
          .update(privacyRequests)
          .set({ status: 'closed', email: null, details: null, outcome: 'answered' })
          .where(eq(privacyRequests.id, row!.id));
      });

      it('changes nothing for an unconfirmed request, nor for a link past 24 hours or altered', async () => {
        const token = await linkFor(email, 'erase');
        const later = new Date(Date.now() + 24 * hour + 60_000);
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET, later)).toEqual({
          outcome: 'expired',
        });
        expect(await confirmPrivacyRequest(database.db, `${token}x`, TEST_SECRET)).toEqual({
          outcome: 'invalid',
        });
        await worker().drain();
        expect(await database.db.select().from(leads).where(eq(leads.id, leadId))).toHaveLength(1);
        expect(await database.db.select().from(privacyRequests)).toHaveLength(2);
        expect(await database.db.select().from(suppressions)).toEqual([]);
        // The daily purge forgets the links sent (their tokens encode the address).
        expect(await forgetSentLinks(database.db)).toBeGreaterThanOrEqual(1);
        expect(
          await database.db.select().from(jobs).where(eq(jobs.kind, privacyLinkJob.name)),
        ).toEqual([]);
      });

      it('erases on request: the demo cancelled first, lead.erased signed, nothing left in clear, later demo e-mails suppressed', async () => {
        receiver.reset();
        const before = smtp.received.length;
        const token = await linkFor(email, 'erase');
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET)).toMatchObject({
          outcome: 'confirmed',
        });
        const running = worker();
        running.start();
        try {
          await until(async () =>
            (await database.db.select().from(privacyRequests)).every(
              (row) => row.status === 'closed',
            ),
          );
          await until(async () =>
            receiver.delivered().some((hook) => hook.body.includes('lead.erased')),
          );
        } finally {
          await running.stop();
        }

        const sent = smtp.received.slice(before);
        const toHost = sent.filter((mail) => mail.envelope.to.includes(meera.email));
        const calendar = toHost[0]!.parsed.attachments.find(
          (part) => part.mimeType === 'text/calendar',
        )!;
        const ics =
          typeof calendar.content === 'string'
            ? calendar.content
            : new TextDecoder().decode(calendar.content);
        expect(
          new ICAL.Component(ICAL.parse(ics) as unknown[]).getFirstPropertyValue('method'),
        ).toBe('CANCEL');
        expect(mailsTo(email).at(-1)!.parsed.subject).toMatch(/^Your data is erased \(PR-/);

        const erasedHook = receiver.delivered().find((hook) => hook.body.includes('lead.erased'))!;
        const event = new Webhook(WEBHOOK_SECRET).verify(erasedHook.body, erasedHook.headers);
        expect(event).toMatchObject({ type: 'lead.erased', version: 1, data: { reference } });
        expect(erasedHook.body).not.toContain(email);
        expect(receiver.delivered().some((hook) => hook.body.includes('"demo.cancelled"'))).toBe(
          true,
        );

        expect(await listLeads(database.db, { includeSpam: true })).toEqual([]);
        expect(await cellsContaining(database, email)).toEqual([]);
        expect(await database.db.select().from(suppressions)).toMatchObject([
          { emailHash: addressHash(email, TEST_SECRET), reason: 'erase' },
        ]);
        const erase = (await database.db.select().from(privacyRequests)).find(
          (row) => row.kind === 'erase' && row.status === 'closed',
        );
        expect(erase?.outcome).toBe('erased 1 enquiry, 1 demo');
      });

      it('sends a suppressed address nothing, whoever types it, until its owner asks to hear from us again and confirms', async () => {
        const id = randomUUID();
        await database.db.insert(leads).values({
          id,
          reference: `NH-${id.slice(0, 8).toUpperCase()}`,
          submissionId: id,
          firstName: 'Asha',
          lastName: 'Rao',
          email,
          organization: 'City General Hospital',
          subject: 'Schedule a Demo',
        });
        const before = mailsTo(email).length;
        expect((await bookDemo(database.db, settings(), id, demoTime() + hour)).outcome).toBe(
          'booked',
        );
        await worker().drain();
        expect(mailsTo(email)).toHaveLength(before);

        // An enquiry with the address is stored, marked, and lifts nothing.
        const again = await submitEnquiry(formData({ email }), request(), deps(database.db));
        expect(again.status).toBe('accepted');
        expect(await database.db.select().from(suppressions)).toHaveLength(1);
        const [lead] = await database.db
          .select()
          .from(leads)
          .where(eq(leads.reference, (again as { reference: string }).reference));
        expect(lead!.suppressed).toBe(true);
        expect(
          (await bookDemo(database.db, settings(), lead!.id, demoTime() + 2 * hour)).outcome,
        ).toBe('booked');
        await worker().drain();
        expect(mailsTo(email)).toHaveLength(before);

        // Any other request queues it nothing; a stranger's "hear from us again" gets the same page.
        const copy = await ask(email, 'copy');
        expect(await ask('nobody@elsewhere.example', 'resume')).toEqual(copy);
        await worker().drain();
        expect(mailsTo(email)).toHaveLength(before);
        expect(mailsTo('nobody@elsewhere.example')).toEqual([]);

        // Its owner asks to hear from us again: the link is the one e-mail it receives.
        const token = await linkFor(email, 'resume');
        expect(mailsTo(email)).toHaveLength(before + 1);
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET)).toMatchObject({
          outcome: 'confirmed',
        });
        expect(await database.db.select().from(suppressions)).toEqual([]);
        const [resume] = await database.db
          .select()
          .from(privacyRequests)
          .where(eq(privacyRequests.kind, 'resume'));
        expect(resume).toMatchObject({
          status: 'closed',
          email: null,
          outcome: 'suppression lifted',
        });
        const audit = await database.db
          .select({ actor: auditLog.actor, action: auditLog.action, detail: auditLog.detail })
          .from(auditLog)
          .where(eq(auditLog.subject, resume!.reference));
        expect(audit).toEqual(
          expect.arrayContaining([
            { actor: 'visitor', action: 'privacy-request', detail: 'resume' },
            { actor: 'visitor', action: 'privacy-outcome', detail: 'suppression lifted' },
          ]),
        );
        // From now on the address hears from us: a new enquiry is not marked, a request's link
        // arrives (linkFor checks it), with the rights footer.
        const next = await submitEnquiry(formData({ email }), request(), deps(database.db));
        const [unmarked] = await database.db
          .select()
          .from(leads)
          .where(eq(leads.reference, (next as { reference: string }).reference));
        expect(unmarked!.suppressed).toBe(false);
        await linkFor(email, 'copy');
        expect(mailsTo(email).at(-1)!.parsed.text).toContain(
          'Your data and your rights: http://localhost:3000/privacy-requests',
        );
      });
    },
  );
}
