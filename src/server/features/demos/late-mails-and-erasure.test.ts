import '@test/quiet-logs';
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { demoBookings } from './schema';
import { jobs } from '../../delivery/queue/schema';
import { leads } from '../contact/schema';
import { createSmtpSender } from '../../delivery/email/transport';
import { CLI_ACTOR } from '../../platform/audit';
import { eraseAddress } from '../privacy/erase';
import { personalData } from '../../wiring/personal-data';
import { log } from '../../platform/log';
import { handle } from '../../delivery/queue/job';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { LEADS_FROM, LEADS_TO, TEST_SECRET, fastRetry, testWorker, until } from '@test/enquiry';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { bookDemo } from './commands/book';
import { demoMailJob, sendDemoMail } from './mails/mail-jobs';
import type { DemoBooking } from './types';

const settings = testBookingSettings({ hosts: [meera] });
/** Thursday 5 March 2026, 05:30 IST; Friday 10:00 IST (04:30Z) is the first time offered. */
const now = Date.parse('2026-03-05T00:00:00Z');
const friday10 = Date.parse('2026-03-06T04:30:00Z');
const minute = 60_000;

/** METHOD and the ATTENDEE/ORGANIZER properties of an e-mail's calendar, as ical.js reads them. */
function calendarOf(mail: ReceivedMail) {
  const part = mail.parsed.attachments.find((item) => item.mimeType === 'text/calendar')!;
  const text =
    typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { method: calendar.getFirstPropertyValue('method'), vevent };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('demo e-mails after the start, and erasing an enquiry with a live demo', backend),
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

      /** A worker sending demo e-mails to the test SMTP server, its clock at `at()`. */
      const worker = (at: () => number) =>
        testWorker(database.db, undefined, undefined, [
          handle(
            demoMailJob,
            sendDemoMail(
              database.db,
              createSmtpSender(smtp.url),
              { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
              settings.hosts,
              undefined,
              at,
            ),
            fastRetry,
          ),
        ]);

      async function addLead(
        lastName: string,
        email: string,
      ): Promise<{ id: string; email: string }> {
        const id = randomUUID();
        await database.db.insert(leads).values({
          id,
          reference: `NH-${id.slice(0, 8).toUpperCase()}`,
          submissionId: id,
          firstName: 'Asha',
          lastName,
          email,
          organization: 'City General Hospital',
          subject: 'Schedule a Demo',
          demoRequested: true,
        });
        return { id, email };
      }

      /** Erases `email` as the site does, booking on: every registration, demos first. */
      const erase = (email: string, options: Parameters<typeof eraseAddress>[3]) =>
        eraseAddress(
          database.db,
          {
            secret: TEST_SECRET,
            webhookUrls: [],
            holders: personalData({ settings, webhookUrls: [] }),
          },
          { email, kind: 'erase', actor: CLI_ACTOR },
          options,
        );

      async function book(leadId: string, at: number): Promise<DemoBooking> {
        const result = await bookDemo(database.db, settings, leadId, at, now);
        expect(result.outcome).toBe('booked');
        return (result as { booking: DemoBooking }).booking;
      }

      it('sends no invitation and no reminder once the demo has started, and logs why', async () => {
        const lead = await addLead('Late', 'late@hospital.example');
        const booking = await book(lead.id, friday10);
        const info = vi.spyOn(log, 'info');
        try {
          // The worker comes back after an outage, one minute after the start.
          await worker(() => friday10 + minute).drain();
          const skipped = info.mock.calls
            .map(([facts]) => facts as unknown as Record<string, unknown>)
            .filter((facts) => facts.event === 'job.skipped' && facts.owner === lead.id);
          expect(skipped.map((facts) => facts.reason)).toEqual([
            'demo already started',
            'demo already started',
            'demo already started',
          ]);
        } finally {
          info.mockRestore();
        }
        expect(smtp.received.filter((mail) => mail.envelope.to.includes(lead.email))).toEqual([]);
        const states = await database.db
          .select({ status: jobs.status })
          .from(jobs)
          .where(eq(jobs.owner, lead.id));
        expect(states.map((job) => job.status)).toEqual(['sent', 'sent', 'sent']);
        expect(booking.status).toBe('booked');
      });

      it('keeps injected parameters out of the ATTENDEE line: ical.js sees only the site’s PARTSTAT', async () => {
        const lead = await addLead('x";PARTSTAT=ACCEPTED;X="\u0007', 'inject@hospital.example');
        await book(lead.id, friday10 + 60 * minute);
        await worker(() => now).drain();
        // The host's invitation names the visitor (CN); the visitor's own carries nothing typed.
        const invitationTo = (address: string) => (mail: ReceivedMail) =>
          mail.envelope.to.includes(address) && mail.parsed.attachments.length > 0;
        await until(async () =>
          [lead.email, meera.email].every((address) => smtp.received.some(invitationTo(address))),
        );
        const attendeeIn = (mail: ReceivedMail) =>
          calendarOf(mail)
            .vevent.getAllProperties('attendee')
            .find(
              (property) =>
                String(property.getFirstValue()).toLowerCase() === `mailto:${lead.email}`,
            )!;
        const attendee = attendeeIn(smtp.received.find(invitationTo(meera.email))!);
        expect(attendee.getParameter('partstat')).toBe('NEEDS-ACTION');
        expect(attendee.getParameter('cn')).toBe('Asha x;PARTSTAT=ACCEPTED;X=');
        expect(attendee.getParameter('x')).toBeUndefined();
        expect(Object.keys(attendee.toJSON()[1] as object).sort()).toEqual([
          'cn',
          'partstat',
          'role',
          'rsvp',
        ]);
        const own = attendeeIn(smtp.received.find(invitationTo(lead.email))!);
        expect(own.getParameter('partstat')).toBe('NEEDS-ACTION');
        expect(own.getParameter('cn')).toBeUndefined();
        expect(own.getParameter('x')).toBeUndefined();
      });

      it('cancels a live demo before erasing its enquiry: the host receives METHOD:CANCEL, then everything is gone', async () => {
        const lead = await addLead('Erase', 'erase@hospital.example');
        const booking = await book(lead.id, friday10 + 120 * minute);
        await worker(() => now).drain(); // the invitations
        const before = smtp.received.length;

        // No worker runs: the cancellation cannot leave, so nothing is erased yet.
        const waiting = await erase('ERASE@hospital.example', { now, waitMs: 200, pollMs: 50 });
        expect(waiting).toEqual({ outcome: 'cancellations-unsent', cancelled: 1, unsent: 2 });
        const [cancelled] = await database.db
          .select()
          .from(demoBookings)
          .where(eq(demoBookings.id, booking.id));
        expect([cancelled!.status, cancelled!.sequence]).toEqual(['cancelled', 1]);
        expect(await database.db.select().from(leads).where(eq(leads.id, lead.id))).toHaveLength(1);

        // With the worker running, the erasure waits for the cancellations, then erases.
        const running = worker(() => now);
        running.start();
        try {
          const erased = await erase(lead.email, { now, pollMs: 50 });
          expect(erased).toMatchObject({ outcome: 'erased', enquiries: 1, cancelled: 0 });
        } finally {
          await running.stop();
        }
        const sent = smtp.received.slice(before);
        const toHost = sent.filter((mail) => mail.envelope.to.includes(meera.email));
        expect(toHost.map((mail) => calendarOf(mail).method)).toEqual(['CANCEL']);
        expect(toHost[0]!.parsed.subject).toMatch(/^Cancelled: demo /);
        expect(sent.filter((mail) => mail.envelope.to.includes(lead.email))).toHaveLength(1);
        expect(await database.db.select().from(leads).where(eq(leads.id, lead.id))).toEqual([]);
        expect(await database.db.select().from(jobs).where(eq(jobs.owner, lead.id))).toEqual([]);
        expect(
          await database.db.select().from(demoBookings).where(eq(demoBookings.id, booking.id)),
        ).toEqual([]);
      });
    },
  );
}
