import '@test/quiet-logs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { LEADS_FROM, TEST_SECRET, fastRetry, freshToken, request, testWorker } from '@test/enquiry';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { createSmtpSender } from '../../delivery/email/transport';
import { handle } from '../../delivery/queue/job';
import { jobs } from '../../delivery/queue/schema';
import { auditLog } from '../../platform/audit/schema';
import { unprovenMails } from '../../platform/people/schema';
import { addressHash } from '../../platform/people/address-hash';
import { issueFormToken } from '../../platform/security/form-token';
import { personalData } from '../../wiring/personal-data';
import { askForPrivacyLink, type AskDeps } from './ask';
import { confirmPrivacyRequest } from './confirm';
import { honourPrivacyRequest } from './honour';
import { honourJob } from './honour-job';
import { privacyLinkJob, sendPrivacyLink } from './link-job';
import { closeAbusiveRequests } from './handling';
import { privacyRequests } from './schema';

/**
 * The privacy form cannot be turned against an address: its grievance links count against the
 * inbox's own budget of them (2 a day, one per client group, as by default), it has the contact form's
 * bot defences, and one address has at most one open grievance, later ones joining it. Every post
 * gets the same answer. Real SMTP server, both databases.
 */

const sent = { status: 'sent', message: expect.stringMatching(/^Thank you/) };

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('privacy form: nobody is mail-bombed', backend),
    () => {
      let database: TestDatabase;
      let smtp: TestSmtpServer;
      const holders = () => personalData({ webhookUrls: [] });

      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        smtp = await startSmtpServer();
      });
      afterAll(async () => {
        await smtp?.close();
        await database?.dispose();
      });

      const worker = () => {
        const send = createSmtpSender(smtp.url);
        const secret = async () => TEST_SECRET;
        const from = { from: LEADS_FROM };
        return testWorker(database.db, undefined, undefined, [
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
              webhookUrls: [],
              holders: holders(),
            }),
            fastRetry,
          ),
        ]);
      };

      const askDeps = (now?: Date): AskDeps => ({
        db: database.db,
        secret: TEST_SECRET,
        rateLimit: { max: 5, windowMs: 600_000 },
        mailBudget: {
          perAddressPerDay: 3,
          perClientPerDay: 2,
          grievancesPerDay: 2,
          sitePerHour: 200,
        },
        allowedOrigins: [],
        holders: holders(),
        ...(now ? { now: () => now } : {}),
      });

      /** A grievance from `address`, posted as the browser does (token, empty honeypot). */
      function grievance(
        address: string,
        details: string,
        form: { token?: string | null; honeypot?: string } = {},
      ): FormData {
        const data = new FormData();
        data.set('email', address);
        data.set('kind', 'grievance');
        data.set('details', details);
        if (form.token !== null) data.set(formTokenField, form.token ?? freshToken());
        data.set(honeypotField, form.honeypot ?? '');
        return data;
      }

      const mailsTo = (address: string) =>
        smtp.received.filter((mail) => mail.envelope.to.includes(address));

      function tokenOf(mail: ReceivedMail): string {
        const match = /privacy-requests\/confirm\?token=([^\s]+)/.exec(mail.parsed.text ?? '');
        if (!match) throw new Error('no link in the e-mail');
        return decodeURIComponent(match[1]!);
      }

      it('ten grievances for one address from ten clients in five groups: at most 2 e-mails reach it, the same answer to all', async () => {
        const victim = 'victim@hospital.example';
        const answers = [];
        for (let i = 0; i < 10; i++)
          answers.push(
            await askForPrivacyLink(
              grievance(victim, `Complaint number ${i}.`),
              request(`192.0.${2 + (i % 5)}.${i + 1}`),
              askDeps(),
            ),
          );
        await worker().drain();
        const reached = mailsTo(victim).length;
        console.log(
          `privacy links: 10 grievances from 10 clients, ${reached} e-mails reached the address`,
        );
        expect(reached).toBe(2);
        expect(answers).toEqual(Array.from({ length: 10 }, () => sent));
        const counted = await database.db
          .select()
          .from(unprovenMails)
          .where(eq(unprovenMails.emailHash, addressHash(victim, TEST_SECRET)));
        expect(counted.map((row) => [row.kind, row.bucket])).toEqual(
          Array(2).fill(['privacy.link', 'grievance']),
        );

        // A day later the address may be mailed again (the budget is a rolling 24 hours).
        const tomorrow = new Date(Date.now() + 24 * 3_600_000 + 60_000);
        const later = issueFormToken(TEST_SECRET, tomorrow.getTime() - 10_000);
        await askForPrivacyLink(
          grievance(victim, 'Once more.', { token: later }),
          request('192.0.2.50'),
          askDeps(tomorrow),
        );
        expect(
          await database.db
            .select()
            .from(unprovenMails)
            .where(eq(unprovenMails.emailHash, addressHash(victim, TEST_SECRET))),
        ).toHaveLength(3);
      });

      it('a bot gets the same answer and the address nothing: honeypot, no token, too fast, forged', async () => {
        const target = 'bot-target@hospital.example';
        const posts = [
          grievance(target, 'Honeypot.', { honeypot: 'http://spam.example' }),
          grievance(target, 'No token.', { token: null }),
          grievance(target, 'Too fast.', { token: issueFormToken(TEST_SECRET) }),
          grievance(target, 'Forged.', { token: `${freshToken()}x` }),
        ];
        for (const [i, post] of posts.entries())
          expect(await askForPrivacyLink(post, request(`198.51.100.${i + 1}`), askDeps())).toEqual(
            sent,
          );
        await worker().drain();
        expect(mailsTo(target)).toEqual([]);

        // One form sends one request: its token (and proof) posted again sends nothing more.
        const form = freshToken();
        for (const i of [10, 11])
          expect(
            await askForPrivacyLink(
              grievance(target, 'Replayed.', { token: form }),
              request(`198.51.100.${i}`),
              askDeps(),
            ),
          ).toEqual(sent);
        await worker().drain();
        expect(mailsTo(target)).toHaveLength(1);

        // An expired token is not a bot: the form asks again, with a fresh token, what was typed kept.
        const stale = issueFormToken(TEST_SECRET, Date.now() - 7 * 3_600_000);
        const answer = await askForPrivacyLink(
          grievance(target, 'Left open all day.', { token: stale }),
          request('198.51.100.9'),
          askDeps(),
        );
        expect(answer).toMatchObject({
          status: 'invalid',
          message: expect.stringMatching(/open for a long time/),
          values: { email: target, details: 'Left open all day.' },
          token: expect.stringMatching(/^v1\./),
        });
      });

      it('one open grievance per address: later ones join it, with no new request and no new e-mail', async () => {
        const person = 'complainant@hospital.example';
        // Two links asked before any is confirmed (unconfirmed requests are not stored): both sent.
        for (const [i, text] of ['First complaint.', 'Second complaint.'].entries())
          expect(
            await askForPrivacyLink(
              grievance(person, text),
              request(`203.0.${113 + i}.1`),
              askDeps(),
            ),
          ).toEqual(sent);
        await worker().drain();
        const [first, second] = mailsTo(person).map(tokenOf);
        const opened = await confirmPrivacyRequest(database.db, first, TEST_SECRET);
        expect(opened).toMatchObject({ outcome: 'confirmed', reference: /^PR-/ });
        const { reference } = opened as { reference: string };
        // The worker sends the two links in either order: the first confirmed names its complaint.
        const [confirmedFirst] = await database.db
          .select({ details: privacyRequests.details })
          .from(privacyRequests)
          .where(eq(privacyRequests.reference, reference));
        const [firstText, secondText] =
          confirmedFirst!.details === 'First complaint.'
            ? ['First', 'Second']
            : ['Second', 'First'];
        await worker().drain();
        expect(mailsTo(person)).toHaveLength(3); // the two links and the acknowledgement

        // The second link, confirmed now, joins the open grievance: its reference, no new mail.
        expect(await confirmPrivacyRequest(database.db, second, TEST_SECRET)).toEqual({
          outcome: 'confirmed',
          reference,
        });
        expect(await confirmPrivacyRequest(database.db, second, TEST_SECRET)).toEqual({
          outcome: 'used',
        });
        // A grievance through the form now joins it too: the same answer, no link.
        expect(
          await askForPrivacyLink(
            grievance(person, 'Third complaint.'),
            request('203.0.113.3'),
            askDeps(),
          ),
        ).toEqual(sent);
        await worker().drain();
        expect(mailsTo(person)).toHaveLength(3);

        const rows = await database.db
          .select()
          .from(privacyRequests)
          .where(eq(privacyRequests.emailHash, addressHash(person, TEST_SECRET)));
        const open = rows.filter((row) => row.status === 'open');
        expect(open).toHaveLength(1);
        expect(open[0]!.reference).toBe(reference);
        expect(open[0]!.details).toMatch(
          new RegExp(
            `^${firstText} complaint\\.\\n\\n\\[Added .+, confirmed by a link e-mailed to the address\\]\\n${secondText} complaint\\.\\n\\n\\[Added .+, sent through the form; the address was not proved again\\]\\nThird complaint\\.$`,
          ),
        );
        expect(rows.filter((row) => row.status === 'closed')).toMatchObject([
          { kind: 'grievance', outcome: `joined ${reference}`, email: null, details: null },
        ]);
        expect(
          await database.db
            .select()
            .from(jobs)
            .where(and(eq(jobs.kind, 'privacy.honour'), eq(jobs.status, 'pending'))),
        ).toEqual([]);
      });

      it('an admin closes requests judged abusive in bulk, audited in the same transaction; sales may not', async () => {
        const open = await database.db
          .select({ reference: privacyRequests.reference })
          .from(privacyRequests)
          .where(eq(privacyRequests.status, 'open'));
        expect(open.length).toBeGreaterThan(0);
        const references = open.map((row) => row.reference);
        const sales = { email: 'sales@nirmaya.example', role: 'sales' as const };
        const admin = { email: 'admin@nirmaya.example', role: 'admin' as const };
        await expect(closeAbusiveRequests(database.db, sales, references)).rejects.toThrow(
          /admins only/,
        );
        const closed = await closeAbusiveRequests(database.db, admin, [
          ...references.map((reference) => ` ${reference.toLowerCase()} `),
          'PR-NOSUCHONE0',
        ]);
        expect(closed).toEqual([...references].sort());
        expect(await closeAbusiveRequests(database.db, admin, references)).toEqual([]);
        const rows = await database.db
          .select()
          .from(privacyRequests)
          .where(inArray(privacyRequests.reference, references));
        for (const row of rows)
          expect(row).toMatchObject({
            status: 'closed',
            outcome: 'closed as abusive',
            email: null,
            details: null,
            assignedTo: admin.email,
          });
        const audit = await database.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, 'privacy-close'));
        expect(audit.map((row) => [row.actor, row.subject]).sort()).toEqual(
          references.map((reference) => [admin.email, reference]).sort(),
        );
      });
    },
  );
}
