import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { LEADS_FROM, LEADS_TO, TEST_SECRET, deps, formData, request } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { mailsTo as mailsToOf, siteWorker } from '@test/site-worker';
import { submitEnquiry } from '../features/contact/submit';
import { leads } from '../features/contact/schema';
import { bookDemo } from '../features/demos/commands/book';
import { jobs } from '../delivery/queue/schema';
import { createSmtpSender } from '../delivery/email/transport';
import { withSuppressionGate, recipientsOf } from '../delivery/email/suppression-gate';
import { addressKeys } from '../platform/people/address-hash';
import { suppress } from '../platform/people/suppression';

const victim = 'asha.rao@hospital.example';
const hour = 3_600_000;

/** A bookable time `days` ahead at 10:00 IST (04:30Z) plus `hours`, inside the test rules. */
function demoTime(days: number, hours = 0): number {
  const day = new Date(Date.now() + days * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30) + hours * hour;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('an erasure holds: the address gets nothing, whoever types it', backend),
    () => {
      let database: TestDatabase;
      let smtp: TestSmtpServer;

      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        smtp = await startSmtpServer();
        // The state an erasure (or a withdrawal) leaves: the address's keyed hash suppressed.
        await suppress(database.db, addressKeys(victim, TEST_SECRET), 'erase', new Date());
      });
      afterAll(async () => {
        await smtp?.close();
        await database?.dispose();
      });

      const mailsTo = (address: string) => mailsToOf(smtp, address);

      for (const [index, confirmEmail] of [false, true].entries())
        it(`a stranger's enquiry and booking with the address (booking confirmation ${confirmEmail ? 'on' : 'off'}): sales get the enquiry marked, the address nothing, no job fails`, async () => {
          const sent = await submitEnquiry(
            formData({ email: victim.toUpperCase(), firstName: 'Stranger' }),
            request(),
            deps(database.db),
          );
          expect(sent.status).toBe('accepted');
          const { reference } = sent as { reference: string };
          const [lead] = await database.db
            .select()
            .from(leads)
            .where(eq(leads.reference, reference));
          expect(lead!.suppressed).toBe(true);
          const toHost = mailsTo(meera.email).length;
          const settings = testBookingSettings({ hosts: [meera], confirmEmail });
          const booked = await bookDemo(database.db, settings, lead!.id, demoTime(2, index));
          expect(booked.outcome).toBe(confirmEmail ? 'held' : 'booked');
          // Everything queued is due now: the reminder too (it waits for 24 h before the demo).
          await database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) });
          const worker = siteWorker(database, smtp);
          const ran = await worker.drain();
          await worker.stop();

          expect(mailsTo(victim)).toEqual([]);
          const enquiry = mailsTo(LEADS_TO).find((mail) =>
            mail.parsed.subject?.startsWith(`Website enquiry ${reference} (suppressed address)`),
          );
          expect(enquiry?.parsed.text).toContain('do not write to this address');
          expect(enquiry?.parsed.replyTo).toBeUndefined();
          // With confirmation off the host is invited (a staff mail); with it on nothing is sent
          // until the (never delivered) confirmation.
          expect(mailsTo(meera.email).length > toHost).toBe(!confirmEmail);
          // The host's invitation has no Reply-To to the suppressed address, and says why.
          for (const invitation of mailsTo(meera.email).slice(toHost)) {
            expect(invitation.parsed.replyTo).toBeUndefined();
            expect(invitation.parsed.text).toContain('do not write to this address');
          }
          const states = await database.db
            .select({ kind: jobs.kind, status: jobs.status })
            .from(jobs)
            .where(eq(jobs.owner, lead!.id));
          const demoJobs = await database.db.select({ status: jobs.status }).from(jobs);
          expect(states.every((job) => job.status === 'sent')).toBe(true);
          expect(demoJobs.every((job) => job.status === 'sent')).toBe(true);
          console.log(
            `confirmation ${confirmEmail ? 'on' : 'off'}: ${ran} jobs run, ${mailsTo(victim).length} e-mails to the suppressed address, ${mailsTo(LEADS_TO).length} to the sales inbox, ${mailsTo(meera.email).length - toHost} to the host`,
          );
        });

      it('lets through staff mail and the resume link only; any suppressed recipient withholds a visitor mail', async () => {
        const gate = withSuppressionGate(createSmtpSender(smtp.url), {
          db: database.db,
          secret: async () => TEST_SECRET,
        });
        const before = mailsTo(victim).length;
        const message = { from: LEADS_FROM, subject: 'test', text: 'test' };
        expect(
          await gate({ ...message, to: 'other@elsewhere.example', cc: `Asha <${victim}>` }),
        ).toBe('suppressed');
        expect(await gate({ ...message, bcc: [{ name: 'A', address: victim }] })).toBe(
          'suppressed',
        );
        expect(await gate({ ...message, to: victim }, { audience: 'staff' })).toBeUndefined();
        expect(await gate({ ...message, to: victim }, { audience: 'resume-link' })).toBeUndefined();
        expect(await gate({ ...message, to: 'other@elsewhere.example' })).toBeUndefined();
        expect(mailsTo(victim)).toHaveLength(before + 2);
        expect(
          recipientsOf({
            to: 'A <a@x.example>, b@x.example',
            cc: [{ name: 'C', address: 'c@x.example' }],
          }),
        ).toEqual(['a@x.example', 'b@x.example', 'c@x.example']);
      });
    },
  );
}
