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
import { suppressions, unprovenMails } from '../../platform/people/schema';
import { addressHash, addressKeys } from '../../platform/people/address-hash';
import { suppress } from '../../platform/people/suppression';
import { difference, rowCounts } from '@test/row-counts';
import { issueFormToken } from '../../platform/security/form-token';
import { personalData } from '../../wiring/personal-data';
import { askForPrivacyLink, type AskDeps } from './ask';
import { confirmPrivacyRequest } from './confirm';
import { honourPrivacyRequest } from './honour';
import { honourJob } from './honour-job';
import { privacyLinkJob, sendPrivacyLink } from './link-job';
import { decidePrivacyAsk, privacyAskJob } from './ask-job';
import { closeAbusiveRequests } from './abusive';
import { privacyReplyJob, sendPrivacyReply } from './reply';
import { grievanceAdditions, privacyRequests } from './schema';
import { viewPrivacyRequest } from './handling';

/**
 * The privacy form cannot be turned against an address: its grievance links count against the
 * inbox's own budget of them (2 a day, one per client group, as by default), it has the contact form's
 * bot defences, and one address has at most one open grievance, later ones joining it. Every post
 * gets the same answer. Real SMTP server, both databases.
 */

const sent = { status: 'sent', message: expect.stringMatching(/^Thank you/) };
/** The budget of mails to unproven addresses, as by default but for a ceiling of 3 a day. */
const budget = { perAddressPerDay: 3, perClientPerDay: 2, grievancesPerDay: 2, sitePerHour: 200 };

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
        const running = testWorker(database.db, undefined, undefined, [
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
            privacyReplyJob,
            sendPrivacyReply(send, {
              ...from,
              replyTo: { name: 'Grievance Officer', address: 'grievance@nirmaya.example' },
            }),
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
        return running;
      };

      const askDeps = (now?: Date): AskDeps => ({
        db: database.db,
        secret: TEST_SECRET,
        rateLimit: { max: 5, windowMs: 600_000 },
        mailBudget: budget,
        allowedOrigins: [],
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
        await worker().drain();
        expect(
          await database.db
            .select()
            .from(unprovenMails)
            .where(eq(unprovenMails.emailHash, addressHash(victim, TEST_SECRET))),
        ).toHaveLength(3);
      });

      it('a bot gets the same answer and the address nothing: honeypot, no token, forged; too fast gets the form again', async () => {
        const target = 'bot-target@hospital.example';
        // Too fast (no proof of work, a token under 3 s old: no JavaScript, or autofill): maybe a
        // person, so never a false "on its way": the form again as typed, with its own token.
        const young = issueFormToken(TEST_SECRET);
        expect(
          await askForPrivacyLink(
            grievance(target, 'Too fast.', { token: young }),
            request('198.51.100.20'),
            askDeps(),
          ),
        ).toEqual({
          status: 'invalid',
          message: expect.stringMatching(/^Please press send again/),
          errors: {},
          values: { email: target, kind: 'grievance', details: 'Too fast.' },
          token: young,
        });
        const posts = [
          grievance(target, 'Honeypot.', { honeypot: 'http://spam.example' }),
          grievance(target, 'No token.', { token: null }),
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

      it('does the same work and writes for an address that gets a link, an unknown one and a suppressed one', async () => {
        const erased = 'same-work-erased@hospital.example';
        await suppress(database.db, addressKeys(erased, TEST_SECRET), 'erase', new Date());
        /** A post of `kind` for `address` from client `i`: its answer and the rows it wrote. */
        const post = async (address: string, kind: string, i: number) => {
          const data = grievance(address, 'Please tell me.');
          data.set('kind', kind);
          const before = await rowCounts(database.db);
          const answer = await askForPrivacyLink(data, request(`192.0.2.${200 + i}`), askDeps());
          return { answer, writes: difference(before, await rowCounts(database.db)) };
        };
        const linked = await post('same-work-new@hospital.example', 'grievance', 1);
        const unknown = await post('same-work-unknown@hospital.example', 'copy', 2);
        const suppressed = await post(erased, 'copy', 3);
        for (const each of [linked, unknown, suppressed]) {
          expect(each.answer).toEqual(sent);
          // Two rate-limit counts (the client's, the form's) and one job, whoever's the address.
          expect(each.writes).toEqual({ rate_limits: 2, jobs: 1 });
        }
        // What each leads to is decided on the worker: only the grievance's address gets a link.
        await worker().drain();
        expect(mailsTo('same-work-new@hospital.example')).toHaveLength(1);
        expect(mailsTo('same-work-unknown@hospital.example')).toEqual([]);
        expect(mailsTo(erased)).toEqual([]);
      });

      it('an erased address is sent at most one "hear from us again" link a week, whoever asks', async () => {
        const erased = 'erased-owner@hospital.example';
        const emailHash = addressHash(erased, TEST_SECRET);
        const t0 = new Date();
        await suppress(database.db, addressKeys(erased, TEST_SECRET), 'erase', t0);
        /** Asks to hear from us again for the erased address at `at`, from client `i`. */
        const resume = async (at: Date, i: number) => {
          const data = grievance(erased, '', {
            token: issueFormToken(TEST_SECRET, at.getTime() - 10_000),
          });
          data.set('kind', 'resume');
          const answer = await askForPrivacyLink(data, request(`203.0.113.${i}`), askDeps(at));
          await worker().drain();
          return answer;
        };
        const links = async () =>
          (
            await database.db
              .select()
              .from(unprovenMails)
              .where(eq(unprovenMails.emailHash, emailHash))
          ).length;
        const day = 24 * 3_600_000;
        for (const [i, at] of [0, 60_000, 120_000].entries())
          expect(await resume(new Date(t0.getTime() + at), i + 1)).toEqual(sent);
        expect(await links()).toBe(1);
        // The next day (the daily budget would admit more) and on the sixth: still nothing.
        expect(await resume(new Date(t0.getTime() + day + 60_000), 4)).toEqual(sent);
        expect(await resume(new Date(t0.getTime() + 6 * day), 5)).toEqual(sent);
        expect(await links()).toBe(1);
        // A week after the first link, one more.
        expect(await resume(new Date(t0.getTime() + 7 * day), 6)).toEqual(sent);
        expect(await resume(new Date(t0.getTime() + 7 * day + 60_000), 7)).toEqual(sent);
        expect(await links()).toBe(2);
      });

      it('a look-alike spelling of an erased address gets no "hear from us again" link and does not spend the week\'s', async () => {
        const erased = 'weekly.owner@gmail.com';
        const lookAlikes = ['weeklyowner+promo@gmail.com', 'week.ly.owner@googlemail.com'];
        const keys = addressKeys(erased, TEST_SECRET);
        // In the past, so that the links asked at these times are still valid when sent now.
        const t0 = new Date(Date.now() - 10 * 60_000);
        await suppress(database.db, keys, 'erase', t0);
        /** Asks to hear from us again for `address` at `at`, from client `i`. */
        const resume = async (address: string, at: Date, i: number) => {
          const data = grievance(address, '', {
            token: issueFormToken(TEST_SECRET, at.getTime() - 10_000),
          });
          data.set('kind', 'resume');
          const answer = await askForPrivacyLink(data, request(`198.18.${i}.1`), askDeps(at));
          await worker().drain();
          return answer;
        };
        // Strangers ask with look-alikes of the inbox (one client each): the page answers the
        // same, nothing is sent to any spelling, and the erased spelling's week is not claimed.
        for (const [i, address] of lookAlikes.entries())
          expect(await resume(address, new Date(t0.getTime() + i * 60_000), i + 1)).toEqual(sent);
        for (const address of [erased, ...lookAlikes]) expect(mailsTo(address)).toEqual([]);
        const [row] = await database.db
          .select({ resumeLinkAt: suppressions.resumeLinkAt })
          .from(suppressions)
          .where(eq(suppressions.emailHash, keys.exact));
        expect(row?.resumeLinkAt).toBeNull();
        // The spelling that asked to be erased gets its one link of the week, and only it.
        expect(await resume(erased, new Date(t0.getTime() + 5 * 60_000), 5)).toEqual(sent);
        expect(mailsTo(erased)).toHaveLength(1);
        // A look-alike after it: still nothing, and the inbox's budget counted the one link.
        expect(await resume(lookAlikes[0]!, new Date(t0.getTime() + 6 * 60_000), 6)).toEqual(sent);
        for (const address of lookAlikes) expect(mailsTo(address)).toEqual([]);
        expect(
          await database.db
            .select()
            .from(unprovenMails)
            .where(eq(unprovenMails.emailHash, keys.mailbox)),
        ).toHaveLength(1);
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
        // Each addition is a row of its own with how it came; the first text stays as it was.
        expect(open[0]!.details).toBe(`${firstText} complaint.`);
        const admin = { email: 'admin@nirmaya.example', role: 'admin' as const };
        const additions = async () =>
          (await viewPrivacyRequest(database.db, admin, reference))!.additions.map(
            ({ by, text }) => [by, text],
          );
        expect(await additions()).toEqual([
          ['link', `${secondText} complaint.`],
          ['form', 'Third complaint.'],
        ]);
        // A stranger's text that imitates the old marker is only text, from the form.
        const forged = `More.\n\n[Added ${new Date().toISOString()}, confirmed by a link e-mailed to the address]\nI withdraw my complaint.`;
        await askForPrivacyLink(grievance(person, forged), request('203.0.113.4'), askDeps());
        await worker().drain();
        // At most 5 additions a day: two more of the next four are kept.
        for (const i of [5, 6, 7, 8]) {
          await askForPrivacyLink(
            grievance(person, `Extra ${i}.`),
            request(`203.0.113.${i}`),
            askDeps(),
          );
          await worker().drain();
        }
        expect(await additions()).toEqual([
          ['link', `${secondText} complaint.`],
          ['form', 'Third complaint.'],
          ['form', forged],
          ['form', 'Extra 5.'],
          ['form', 'Extra 6.'],
        ]);
        const [still] = await database.db
          .select({ details: privacyRequests.details })
          .from(privacyRequests)
          .where(eq(privacyRequests.reference, reference));
        expect(still!.details).toBe(`${firstText} complaint.`);
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

      it('an admin closes requests judged abusive in bulk, audited in the same transaction, each requester told; sales may not', async () => {
        const open = await database.db
          .select({ reference: privacyRequests.reference, email: privacyRequests.email })
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
        // Each requester (who proved the address) is told, once, with how to have it dealt with.
        smtp.received.length = 0;
        await worker().drain();
        const told = smtp.received.map((mail) => [mail.envelope.to[0], mail.parsed.subject]);
        expect(told.sort()).toEqual(
          open.map((row) => [row.email, `Your privacy request ${row.reference}`]).sort(),
        );
        for (const mail of smtp.received)
          expect(mail.parsed.text).toMatch(/^We have closed this request without acting on it/);
        // Closed requests keep no one's words: their additions are gone too.
        expect(await database.db.select().from(grievanceAdditions)).toEqual([]);
      });
    },
  );
}
