import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { arjun, meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import {
  LEADS_FROM,
  LEADS_TO,
  TEST_SECRET,
  deps,
  formData,
  freshToken,
  request,
} from '@test/enquiry';
import { drainSite, mailsTo as mailsToOf } from '@test/site-worker';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { submitEnquiry } from '../features/contact/submit';
import { leads } from '../features/contact/schema';
import { bookDemo } from '../features/demos/commands/book';
import { askForPrivacyLink, type AskDeps } from '../features/privacy/ask';
import { confirmPrivacyRequest } from '../features/privacy/confirm';
import { createSmtpSender } from '../delivery/email/transport';
import { withSuppressionGate } from '../delivery/email/suppression-gate';
import { addressHash, addressKeys } from '../platform/people/address-hash';
import { canonicalAddress } from '../platform/people/canonical-address';
import { suppressions, unprovenMails } from '../platform/people/schema';
import { mailBudgetLimits } from '../platform/people/mail-budget';
import { getSiteEnv } from './env';

/**
 * One mailbox, one key: the spellings one inbox receives (`+tag`, Gmail's dots and googlemail.com)
 * are one person to what blocks (the suppression gate, the mail budget, the caps of demos), and
 * stay apart for what discloses, erases or lifts (copy, erasure, "hear from us again"). The site's
 * own job registrations, a real SMTP server, both databases.
 */

const hour = 3_600_000;

/** A bookable time `days` ahead at 10:00 IST (04:30Z) plus `hours`, inside the test rules. */
function demoTime(days: number, hours = 0): number {
  const day = new Date(Date.now() + days * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30) + hours * hour;
}

/** The token of the confirmation link in a privacy link e-mail. */
function tokenOf(mail: ReceivedMail): string {
  const match = /privacy-requests\/confirm\?token=([^\s]+)/.exec(mail.parsed.text ?? '');
  if (!match) throw new Error('no link in the e-mail');
  return decodeURIComponent(match[1]!);
}

/** The JSON attachment of a copy e-mail. */
function copyOf(mail: ReceivedMail): { enquiries: { reference: string; email: string }[] } {
  const attachment = mail.parsed.attachments.find((part) => part.filename === 'your-data.json')!;
  return JSON.parse(
    typeof attachment.content === 'string'
      ? attachment.content
      : new TextDecoder().decode(attachment.content),
  ) as { enquiries: { reference: string; email: string }[] };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('one mailbox, one key: look-alike spellings', backend),
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
      const askDeps = (): AskDeps => ({
        db: database.db,
        secret: TEST_SECRET,
        rateLimit: { max: 5, windowMs: 600_000 },
        allowedOrigins: [],
        mailBudget: mailBudgetLimits(getSiteEnv({} as NodeJS.ProcessEnv)),
      });
      /**
       * Posts the privacy form for `address` and `kind` from a client of its own (or `from`); the
       * queue worker (drain) decides what it leads to.
       */
      function ask(address: string, kind: string, details = '', from?: string) {
        const form = new FormData();
        form.set('email', address);
        form.set('kind', kind);
        form.set('details', details);
        form.set(formTokenField, freshToken());
        form.set(honeypotField, '');
        return askForPrivacyLink(form, request(from), askDeps());
      }
      /** Asks for `kind` as `address`, confirms the e-mailed link and runs what it queued. */
      async function confirmedRequest(address: string, kind: string): Promise<void> {
        const before = mailsTo(address).length;
        await ask(address, kind);
        await drain();
        expect(mailsTo(address)).toHaveLength(before + 1);
        const token = tokenOf(mailsTo(address).at(-1)!);
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET)).toMatchObject({
          outcome: 'confirmed',
        });
        await drain();
      }

      it('keeps the same canonical form in the database as in TypeScript', async () => {
        const addresses = [
          'Asha.Rao+Sales@Hospital.Example',
          'v.i.c.t.i.m.3@gmail.com',
          'Victim3+promo@GoogleMail.com',
          'a.b+c+d@gmail.com',
          '+tag@clinic.example',
          'dots.stay@outlook.example',
          'x.y@gmail.com.evil.example',
          'plain@clinic.example',
        ];
        for (const [i, email] of addresses.entries())
          await database.db.insert(leads).values({
            id: crypto.randomUUID(),
            reference: `NH-CANON${i}`,
            submissionId: `canonical-${i}`,
            firstName: 'A',
            lastName: 'B',
            email,
            organization: 'C',
            subject: 'D',
          });
        const rows = await database.db
          .select({ email: leads.email, canonical: leads.emailCanonical })
          .from(leads);
        expect(rows.map((row) => row.canonical)).toEqual(
          rows.map((row) => canonicalAddress(row.email)),
        );
        expect(rows.map((row) => row.canonical)).toEqual([
          'asha.rao@hospital.example',
          'victim3@gmail.com',
          'victim3@gmail.com',
          'ab@gmail.com',
          '+tag@clinic.example',
          'dots.stay@outlook.example',
          'x.y@gmail.com.evil.example',
          'plain@clinic.example',
        ]);
        await database.db.delete(leads);
      });

      it('after an erasure, no spelling of the inbox is sent anything: enquiries, bookings, privacy links', async () => {
        const victim = 'victim3@gmail.com';
        await submitEnquiry(formData({ email: victim }), request(), deps(database.db));
        await confirmedRequest(victim, 'erase');
        expect(await database.db.select().from(leads)).toEqual([]);
        expect(await database.db.select().from(suppressions)).toMatchObject([
          { emailHash: addressHash(victim, TEST_SECRET), reason: 'erase' },
        ]);

        const spellings = [
          'victim3+promo@gmail.com',
          'v.i.c.t.i.m.3@gmail.com',
          'Victim3@googlemail.com',
        ];
        const toVictim = mailsTo(victim).length;
        const settings = testBookingSettings({ hosts: [meera], confirmEmail: true });
        for (const [i, email] of spellings.entries()) {
          const sent = await submitEnquiry(formData({ email }), request(), deps(database.db));
          expect(sent.status).toBe('accepted');
          const [lead] = await database.db
            .select()
            .from(leads)
            .where(eq(leads.reference, (sent as { reference: string }).reference));
          expect(lead!.suppressed).toBe(true);
          const booked = await bookDemo(database.db, settings, lead!.id, demoTime(2, i));
          expect(booked.outcome).toBe('held');
          for (const kind of ['copy', 'erase', 'withdraw', 'resume'])
            expect((await ask(email, kind)).status).toBe('sent');
          expect((await ask(email, 'grievance', 'Why do you write to me?')).status).toBe('sent');
        }
        await drain();
        for (const email of spellings) expect(mailsTo(email)).toEqual([]);
        expect(mailsTo(victim)).toHaveLength(toVictim);
        const marked = mailsTo(LEADS_TO).filter((mail) =>
          mail.parsed.subject?.includes('(suppressed address)'),
        );
        expect(marked).toHaveLength(spellings.length);

        // Only the spelling that asked can ask to hear from us again; its link is its one mail.
        await confirmedRequest(victim, 'resume');
        expect(await database.db.select().from(suppressions)).toEqual([]);
      });

      it('answers a copy asked by a look-alike spelling with that spelling only', async () => {
        const person = 'meena@clinic.example';
        const alike = 'Meena+work@clinic.example';
        for (const email of [person, alike])
          await submitEnquiry(formData({ email }), request(), deps(database.db));
        const [alikeLead] = await database.db.select().from(leads).where(eq(leads.email, alike));
        await confirmedRequest(alike, 'copy');
        const copy = copyOf(mailsTo(alike).at(-1)!);
        expect(copy.enquiries.map((enquiry) => [enquiry.reference, enquiry.email])).toEqual([
          [alikeLead!.reference, alike],
        ]);
        expect(mailsTo(person)).toEqual([]);
        // A spelling that shared nothing gets no link, though its inbox did.
        await ask('meena+other@clinic.example', 'copy');
        await drain();
        expect(mailsTo('meena+other@clinic.example')).toEqual([]);
      });

      it('counts every spelling of one inbox against one mail budget', async () => {
        const spellings = [
          'r.avi@gmail.com',
          'ravi+a@gmail.com',
          'RAVI@googlemail.com',
          'ravi@gmail.com',
        ];
        // From four client groups, so that only the inbox's budget, not a group's part, limits.
        for (const [i, email] of spellings.entries())
          await ask(email, 'grievance', 'Please stop writing to me.', `198.51.${i}.7`);
        await drain({ UNPROVEN_GRIEVANCES_PER_ADDRESS: '3' });
        const received = spellings.map((email) => mailsTo(email).length);
        expect(received.reduce((sum, n) => sum + n, 0)).toBe(3);
        expect(received).toEqual([1, 1, 1, 0]);
        const counted = await database.db
          .select()
          .from(unprovenMails)
          .where(eq(unprovenMails.emailHash, addressKeys('ravi@gmail.com', TEST_SECRET).mailbox));
        expect(counted).toHaveLength(3);
      });

      it('caps demos per inbox, whatever the spelling', async () => {
        // Another host than the erasure's test, whose holds keep meera's times of day 2.
        const settings = testBookingSettings({
          hosts: [arjun],
          caps: { perEmail: 1, perClient: 10 },
        });
        const booked = [];
        for (const [i, email] of ['s.unil@gmail.com', 'sunil+2@googlemail.com'].entries()) {
          const sent = await submitEnquiry(formData({ email }), request(), deps(database.db));
          const [lead] = await database.db
            .select()
            .from(leads)
            .where(eq(leads.reference, (sent as { reference: string }).reference));
          booked.push((await bookDemo(database.db, settings, lead!.id, demoTime(2, i))).outcome);
        }
        expect(booked).toEqual(['booked', 'capped']);
      });

      it('keeps a suppression made before canonical forms: its spelling, and every spelling of an already canonical one', async () => {
        await database.db.insert(suppressions).values([
          { emailHash: addressHash('old@gmail.com', TEST_SECRET), reason: 'erase' },
          { emailHash: addressHash('o.ld2@gmail.com', TEST_SECRET), reason: 'withdraw' },
        ]);
        const gate = withSuppressionGate(createSmtpSender(smtp.url), {
          db: database.db,
          secret: async () => TEST_SECRET,
        });
        const to = async (address: string) =>
          gate({ from: LEADS_FROM, to: address, subject: 'test', text: 'test' });
        expect(await to('o.l.d+news@gmail.com')).toBe('suppressed');
        expect(await to('OLD@googlemail.com')).toBe('suppressed');
        expect(await to('o.ld2@gmail.com')).toBe('suppressed');
        expect(await to('old2@gmail.com')).toBeUndefined();
        expect(mailsTo('old2@gmail.com')).toHaveLength(1);
      });
    },
  );
}
