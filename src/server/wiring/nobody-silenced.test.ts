import '@test/quiet-logs';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { proofField } from '@/lib/proof-of-work';
import { privacyRequestTexts } from '@/content/privacy';
import type { PrivacyFormState } from '@/lib/privacy-request-schema';
import { meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { TEST_SECRET, deps, formData, freshToken, request } from '@test/enquiry';
import { solvedProof } from '@test/proof-of-work';
import { drainSite, mailsTo as mailsToOf, settle, siteWorker } from '@test/site-worker';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { submitEnquiry } from '../features/contact/submit';
import { leads } from '../features/contact/schema';
import { bookDemo } from '../features/demos/commands/book';
import { verifyConfirmToken } from '../features/demos/tokens';
import { HOLD_MS } from '../features/demos/holds';
import { demoBookings } from '../features/demos/schema';
import type { BookingSettings } from '../features/demos/types';
import { askForPrivacyLink, type AskDeps } from '../features/privacy/ask';
import { jobs } from '../delivery/queue/schema';
import { hashClientAddress } from '../platform/http/client-address';
import { hashClientGroup } from '../platform/http/client-group';
import { issueFormToken } from '../platform/security/form-token';
import {
  isSiteBusy,
  mailBudgetLimits,
  type MailBudgetLimits,
} from '../platform/people/mail-budget';
import { unprovenMails } from '../platform/people/schema';
import { difference, rowCounts } from '@test/row-counts';
import { getSiteEnv } from './env';

/**
 * Nobody is silenced through the site: strangers cannot spend a person's mail budget (it is
 * counted per client group under a ceiling one group cannot reach, grievance links apart), and a
 * flood that reaches the site-wide rate delays the mails of posts without a proof of work instead
 * of dropping everyone's. The site's own job registrations and default budget, a real SMTP
 * server, both databases.
 */

const hour = 3_600_000;
/** The defaults of the environment (UNPROVEN_MAIL_*: 6 an inbox a day, 2 per group, 2 grievances). */
const defaults = mailBudgetLimits(getSiteEnv({} as NodeJS.ProcessEnv));

/** A bookable time `days` ahead at 10:00 IST (04:30Z) plus `hours`, inside the test rules. */
function demoTime(days: number, hours = 0): number {
  const day = new Date(Date.now() + days * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30) + hours * hour;
}

/** The message a privacy form's answer shows ('' for none). */
const messageOf = (state: PrivacyFormState) => ('message' in state ? state.message : '');

/** The booking id of the request to confirm in `mail`, or null for another mail. */
function confirmedBookingOf(mail: ReceivedMail): string | null {
  const match = /\/contact-us\/demo\/confirm\?token=([^\s&]+)/.exec(mail.parsed.text ?? '');
  return match ? verifyConfirmToken(decodeURIComponent(match[1]!), TEST_SECRET) : null;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('nobody is silenced through the site', backend),
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

      const mailsTo = (address: string) => mailsToOf(smtp, address);
      /** Runs the site's queue worker until idle; `env` adds variables (e.g. the mail budget). */
      const drain = (env: Record<string, string> = {}) => drainSite(database, smtp, env);
      const askDeps = (mailBudget: MailBudgetLimits): AskDeps => ({
        db: database.db,
        secret: TEST_SECRET,
        rateLimit: { max: 100, windowMs: 600_000 },
        allowedOrigins: [],
        mailBudget,
      });
      /** The privacy form as posted from `client`, with the proof of work `proof` when given. */
      function privacyForm(email: string, kind: string, details: string, token = freshToken()) {
        const form = new FormData();
        form.set('email', email);
        form.set('kind', kind);
        form.set('details', details);
        form.set(formTokenField, token);
        form.set(honeypotField, '');
        return form;
      }
      /** An enquiry for `email` from `client`, booked at `start`; the booking's id. */
      async function book(
        email: string,
        client: string,
        start: number,
        settings: BookingSettings,
        form = formData({ email }),
      ): Promise<string> {
        const sent = await submitEnquiry(form, request(client), deps(database.db));
        expect(sent.status).toBe('accepted');
        const [lead] = await database.db
          .select()
          .from(leads)
          .where(eq(leads.reference, (sent as { reference: string }).reference));
        const result = await bookDemo(
          database.db,
          settings,
          lead!.id,
          start,
          Date.now(),
          hashClientAddress(client, TEST_SECRET),
          hashClientGroup(client, TEST_SECRET),
        );
        expect(result.outcome).toBe('held');
        return (result as { booking: { id: string } }).booking.id;
      }
      const confirmationsTo = (email: string) =>
        mailsTo(email).map(confirmedBookingOf).filter(Boolean);

      it("three strangers' grievances, then the victim's own booking: the victim gets the confirmation", async () => {
        const victim = 'asha@hospital.example';
        for (const stranger of ['203.0.113.5', '198.51.100.5', '192.0.2.5'])
          expect(
            (
              await askForPrivacyLink(
                privacyForm(victim, 'grievance', 'You wrote to me.'),
                request(stranger),
                askDeps(defaults),
              )
            ).status,
          ).toBe('sent');
        await drain();
        // Grievance links have their own budget: 2 of the 3 reached the inbox.
        expect(mailsTo(victim)).toHaveLength(2);

        const settings = testBookingSettings({
          hosts: [meera],
          confirmEmail: true,
          mailBudget: defaults,
          secret: TEST_SECRET,
        });
        const own = await book(victim, '100.64.0.9', demoTime(2), settings);
        await drain();
        expect(confirmationsTo(victim)).toEqual([own]);
      });

      it("three strangers' bookings (one of them three times), then the victim's own booking: the victim gets the confirmation", async () => {
        const victim = 'ravi@clinic.example';
        const settings = testBookingSettings({
          hosts: [meera],
          confirmEmail: true,
          mailBudget: defaults,
          secret: TEST_SECRET,
          rules: { maxPerDay: 10, bookingDays: 5 },
        });
        const strangers = [
          '203.0.113.6',
          '203.0.113.7',
          '203.0.113.8',
          '198.51.100.6',
          '192.0.2.6',
        ];
        const held = [];
        for (const [i, stranger] of strangers.entries())
          held.push(await book(victim, stranger, demoTime(3 + Math.floor(i / 3), i % 3), settings));
        await drain();
        // The first /24 set off 2 of its 3, the two other strangers 1 each: 4 of the inbox's 6.
        expect(confirmationsTo(victim)).toHaveLength(4);
        const own = await book(victim, '100.64.0.10', demoTime(4, 2), settings);
        await drain();
        expect(confirmationsTo(victim)).toContain(own);
        expect(confirmationsTo(victim)).toHaveLength(5);
      });

      it('a flood from four clients reaches the site-wide rate; a new visitor with JavaScript is sent the confirmation at once, one without it is stored and sent later', async () => {
        await database.db.delete(unprovenMails);
        const flood: MailBudgetLimits = { ...defaults, sitePerHour: 20 };
        // The site's worker with the same site-wide rate, running beside the form as on a site:
        // what each post leads to is decided there, just after its answer.
        const floodEnv = { UNPROVEN_MAIL_PER_HOUR: String(flood.sitePerHour) };
        const worker = siteWorker(database, smtp, floodEnv);
        const answers = [];
        for (let i = 0; i < 24; i++) {
          const client = `2001:db8:${i % 4}::${i}`;
          const post = privacyForm(`stranger-${i}@flood.example`, 'grievance', 'Flood.');
          answers.push(await askForPrivacyLink(post, request(client), askDeps(flood)));
          await settle(worker);
        }
        await worker.stop();
        const counted = await database.db.select().from(unprovenMails);
        console.log(
          `[${backend.kind}] flood: ${counted.length} counted, ${counted.filter((row) => row.at.getTime() > Date.now()).length} delayed`,
        );
        // The rate is reached: 16 sent at once (4/5 of 20), the others delayed, none dropped.
        expect(counted.length).toBeGreaterThanOrEqual(flood.sitePerHour);
        expect(counted.filter((row) => row.at.getTime() > Date.now() + 60_000)).toHaveLength(8);
        expect(answers.slice(0, 16).every((a) => messageOf(a) === privacyRequestTexts.sent)).toBe(
          true,
        );
        expect(
          answers.slice(16).every((a) => messageOf(a) === privacyRequestTexts.sentDelayed),
        ).toBe(true);
        expect(await isSiteBusy(database.db, new Date(), flood)).toBe(true);
        // Busy, the form still does the same work for every address: a grievance (a link that
        // will wait) and a copy for an address nothing is held for get the same delayed answer
        // after the same writes; only the worker tells them apart.
        const busyPosts = [];
        for (const [i, [email, kind]] of [
          ['late-grievance@flood.example', 'grievance'],
          ['nobody@flood.example', 'copy'],
        ].entries()) {
          const before = await rowCounts(database.db);
          const answer = await askForPrivacyLink(
            privacyForm(email!, kind!, 'While busy.'),
            request(`2001:db8:9:${i}::1`),
            askDeps(flood),
          );
          busyPosts.push({ answer, writes: difference(before, await rowCounts(database.db)) });
        }
        for (const each of busyPosts) {
          expect(messageOf(each.answer)).toBe(privacyRequestTexts.sentDelayed);
          expect(each.writes).toEqual({ rate_limits: 2, jobs: 1 });
        }
        await drain(floodEnv);
        const waitingLinks = await database.db
          .select()
          .from(jobs)
          .where(
            and(
              eq(jobs.kind, 'privacy.link'),
              eq(jobs.status, 'pending'),
              gt(jobs.runAt, new Date()),
            ),
          );
        // The 8 delayed grievances' links and the late one wait; nothing for the unknown address.
        expect(waitingLinks).toHaveLength(9);
        expect(mailsTo('late-grievance@flood.example')).toEqual([]);

        const settings = testBookingSettings({
          hosts: [meera],
          confirmEmail: true,
          mailBudget: flood,
          secret: TEST_SECRET,
          rules: { maxPerDay: 10, bookingDays: 5 },
        });
        // With JavaScript: the enquiry carries the proof of work, its confirmation leaves now.
        const withJs = 'meena@clinic.example';
        const token = issueFormToken(TEST_SECRET, Date.now());
        const form = formData({ email: withJs }, { token });
        form.set(proofField, await solvedProof(token));
        const jsBooking = await book(withJs, '100.64.1.1', demoTime(2, 1), settings, form);
        // Without JavaScript: stored and held, its confirmation queued for later.
        const noJs = 'sunil@clinic.example';
        const noJsBooking = await book(noJs, '100.64.2.1', demoTime(2, 2), settings);
        await drain(floodEnv);
        expect(confirmationsTo(withJs)).toEqual([jsBooking]);
        expect(mailsTo(noJs)).toEqual([]);
        const [noJsHold] = await database.db
          .select()
          .from(demoBookings)
          .where(eq(demoBookings.id, noJsBooking));
        const [waiting] = await database.db
          .select()
          .from(jobs)
          .where(
            and(
              eq(jobs.owner, noJsHold!.leadId),
              eq(jobs.status, 'pending'),
              gt(jobs.runAt, new Date()),
            ),
          );
        expect(waiting?.kind).toBe('demo.mail');
        // Its time stays held for the hold's length after the e-mail leaves.
        expect(noJsHold!.heldUntil!.getTime()).toBe(waiting!.runAt.getTime() + HOLD_MS);
        // The privacy form tells a visitor without the proof of work the truth, and one with it
        // the usual answer.
        expect(
          await askForPrivacyLink(
            privacyForm(noJs, 'grievance', 'Late.'),
            request('100.64.2.1'),
            askDeps(flood),
          ),
        ).toMatchObject({ message: privacyRequestTexts.sentDelayed });
        const powToken = issueFormToken(TEST_SECRET, Date.now());
        const powForm = privacyForm(withJs, 'grievance', 'Quick.', powToken);
        powForm.set(proofField, await solvedProof(powToken));
        expect(
          await askForPrivacyLink(powForm, request('100.64.1.1'), askDeps(flood)),
        ).toMatchObject({ message: privacyRequestTexts.sent });

        // Later (the queue's clock reached the delayed jobs): never dropped, the mail leaves.
        await database.db
          .update(jobs)
          .set({ runAt: new Date(Date.now() - 1000) })
          .where(eq(jobs.status, 'pending'));
        await drain(floodEnv);
        expect(confirmationsTo(noJs)).toEqual([noJsBooking]);
        // The delayed privacy link left too, to the address that asked while the site was busy.
        expect(mailsTo('late-grievance@flood.example')).toHaveLength(1);
        expect(mailsTo('nobody@flood.example')).toEqual([]);
      });
    },
  );
}
