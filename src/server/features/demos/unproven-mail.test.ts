import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { addDemoLead } from '@test/demo-lead';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { LEADS_FROM, LEADS_TO, TEST_SECRET, fastRetry, until } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { leads } from '../contact/schema';
import { releaseSpam } from '../contact/quarantine';
import { jobs as jobTable } from '../../delivery/queue/schema';
import { createSmtpSender } from '../../delivery/email/transport';
import { handle } from '../../delivery/queue/job';
import { createWorker } from '../../delivery/queue/worker';
import { announceReleased } from './commands/release';
import { bookDemo } from './commands/book';
import { confirmHold } from './commands/confirm';
import { correctHeldAddress, resendProofRequest } from './commands/re-request';
import { demoMailJob, sendDemoMail } from './mails/mail-jobs';
import { demoBookings } from './schema';
import { confirmPageUrl, issueConfirmToken, verifyConfirmToken } from './tokens';
import type { BookingResult, BookingSettings, DemoBooking } from './types';

/**
 * What reaches an address before its owner proved it: the request to confirm and the "a demo
 * already exists" notice carry nothing typed, count against the budget of such mails, and a
 * quarantined enquiry's booking sends nothing until released. Real databases, a real SMTP server,
 * an injected clock.
 */
const budget = { perAddressPerDay: 3, perClientPerDay: 2, grievancesPerDay: 2, sitePerHour: 200 };
const confirmOn = testBookingSettings({
  hosts: [meera],
  rules: { bookingDays: 5 },
  caps: { perClient: 10, perEmail: 1 },
  confirmEmail: true,
  mailBudget: budget,
  secret: TEST_SECRET,
});
const confirmOff: BookingSettings = { ...confirmOn, confirmEmail: false };
/** Thursday 5 March 2026, 05:30 IST: times are offered from Friday 10:00 IST (04:30Z). */
const now = Date.parse('2026-03-05T00:00:00Z');
const friday10 = Date.parse('2026-03-06T04:30:00Z');
const hour = 60 * 60_000;
/** What the visitor typed on the form (tests/support/demo-lead.ts) and no visitor mail may carry. */
const typed = /Visitor|No \d|Hospital \d/;

const bookingOf = (result: BookingResult): DemoBooking => {
  if (!('booking' in result)) throw new Error(`not booked: ${result.outcome}`);
  return result.booking;
};

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('mail to unproven addresses', backend), () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;
    beforeEach(async () => {
      database = await openTestDatabase(backend.kind, 6);
      smtp = await startSmtpServer();
    });
    afterEach(async () => {
      await smtp?.close();
      await database?.dispose();
    });

    const worker = (at: number) =>
      createWorker(database.db, [
        handle(
          demoMailJob,
          sendDemoMail(
            database.db,
            createSmtpSender(smtp.url),
            { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
            confirmOn.hosts,
            {
              manage: async (id) => `https://nirmaya.example/contact-us/demo/manage?token=m-${id}`,
              confirm: async (booking, issuedAt) =>
                confirmPageUrl(
                  new URL('https://nirmaya.example'),
                  issueConfirmToken(booking.id, TEST_SECRET, issuedAt),
                ),
            },
            () => at,
          ),
          fastRetry,
        ),
      ]);
    /** Runs the queue at `at` until `count` e-mails arrived in all, and checks no more came. */
    const deliver = async (count: number, at = now) => {
      await worker(at).drain();
      await until(async () => smtp.received.length >= count);
      await worker(at).drain();
      expect(smtp.received).toHaveLength(count);
    };
    const jobsOf = async (leadId: string) =>
      (await database.db.select().from(jobTable).where(eq(jobTable.owner, leadId)))
        .filter((job) => job.kind === demoMailJob.name)
        .map((job) => (job.payload as { mail: string }).mail);
    const withEmail = async (index: number, email: string) => {
      const id = await addDemoLead(database.db, index);
      await database.db.update(leads).set({ email }).where(eq(leads.id, id));
      return id;
    };
    const confirmLinkOf = (text: string) =>
      new URL(text.match(/https:\/\/\S+\/contact-us\/demo\/confirm\?\S+/)![0]).searchParams.get(
        'token',
      );

    it('past the per-e-mail cap a booking is held like any other, and the owner is told a demo exists, with its link and nothing typed', async () => {
      const first = await withEmail(1, 'owner@hospital.example');
      const held = bookingOf(await bookDemo(database.db, confirmOn, first, friday10, now));
      await deliver(1);
      const token = confirmLinkOf(smtp.received[0]!.parsed.text!);
      expect(
        (
          await confirmHold(
            database.db,
            confirmOn,
            verifyConfirmToken(token, TEST_SECRET, now)!,
            now,
          )
        ).outcome,
      ).toBe('confirmed');

      const stranger = await withEmail(2, 'OWNER@hospital.example');
      const capped = await bookDemo(database.db, confirmOn, stranger, friday10 + 2 * hour, now);
      // The same outcome as any booking that waits for its e-mail.
      expect(capped).toMatchObject({ outcome: 'held', cap: 'email' });
      expect(await jobsOf(stranger)).toEqual(['exists']);
      await deliver(5); // the first demo's invitations and reminder, then the notice
      const notice = smtp.received.find(
        (mail) => mail.parsed.subject === 'Your Nirmaya HIMS demo',
      )!;
      expect(notice.envelope.to).toEqual(['OWNER@hospital.example']);
      expect(notice.parsed.text).toContain(
        `https://nirmaya.example/contact-us/demo/manage?token=m-${held.id}`,
      );
      expect(notice.parsed.text).not.toMatch(typed);
      expect(notice.parsed.text).not.toMatch(/IST|March|Friday|Meera/);
      console.log(
        `[${backend.kind}] capped booking: ${capped.outcome}, owner mailed "${notice.parsed.subject}"`,
      );
    });

    it('counts every request to confirm and notice against the address: ten bookings with one address from ten client groups, at most 3 e-mails', async () => {
      const outcomes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const lead = await withEmail(10 + i, 'victim@hospital.example');
        const result = await bookDemo(
          database.db,
          confirmOn,
          lead,
          friday10 + (i % 3) * hour + Math.floor(i / 3) * 24 * hour,
          now,
          `client-${i}`,
          `group-${i}`,
        );
        outcomes.push(result.outcome);
      }
      expect(new Set(outcomes)).toEqual(new Set(['held']));
      await deliver(3);
      console.log(
        `[${backend.kind}] ten bookings for one address: ${outcomes.length} answered "held", ${smtp.received.length} e-mails sent`,
      );
      // The visitor asking again changes nothing past the budget.
      const [first] = await database.db.select().from(demoBookings).limit(1);
      expect(
        await resendProofRequest(database.db, confirmOn, first!.leadId, now + 1, 'group-new'),
      ).toBe('not-sent');
    });

    it('a quarantined enquiry books like a lead, sends nothing while it waits, and its release sends what a lead would have', async () => {
      const spamHeld = await addDemoLead(database.db, 30, 'spam');
      const held = await bookDemo(database.db, confirmOn, spamHeld, friday10, now);
      expect(held.outcome).toBe('held');
      const spamBooked = await addDemoLead(database.db, 31, 'spam');
      const booked = await bookDemo(database.db, confirmOff, spamBooked, friday10 + hour, now);
      expect(booked.outcome).toBe('booked');
      expect([...(await jobsOf(spamHeld)), ...(await jobsOf(spamBooked))]).toEqual([]);
      // Its time is kept, not held: resending sends nothing either.
      expect(await resendProofRequest(database.db, confirmOn, spamHeld, now)).toBe('not-held');
      expect(await jobsOf(spamHeld)).toEqual([]);

      const release = (settings: BookingSettings) => ({
        webhookUrls: [],
        onReleased: (tx: Parameters<typeof announceReleased>[0], leadId: string) =>
          announceReleased(tx, settings, leadId, now + 10 * 60_000),
      });
      const reference = async (id: string) =>
        (await database.db.select().from(leads).where(eq(leads.id, id)))[0]!.reference;
      expect(await releaseSpam(database.db, await reference(spamHeld), release(confirmOn))).toBe(
        'released',
      );
      expect(await releaseSpam(database.db, await reference(spamBooked), release(confirmOff))).toBe(
        'released',
      );
      // Released twice: nothing more.
      expect(await releaseSpam(database.db, await reference(spamHeld), release(confirmOn))).toBe(
        'already-released',
      );
      expect((await jobsOf(spamHeld)).sort()).toEqual(['confirm']);
      expect((await jobsOf(spamBooked)).sort()).toEqual(['host', 'reminder', 'visitor']);
      console.log(
        `[${backend.kind}] released: hold → ${(await jobsOf(spamHeld)).join(',')}; booking → ${(await jobsOf(spamBooked)).sort().join(',')}`,
      );
    });

    it('a quarantined booking purged unreleased goes with its enquiry, no e-mail ever sent', async () => {
      const spam = await addDemoLead(database.db, 40, 'spam');
      bookingOf(await bookDemo(database.db, confirmOff, spam, friday10, now));
      await database.db.delete(leads).where(eq(leads.id, spam));
      expect(
        await database.db.select().from(demoBookings).where(eq(demoBookings.leadId, spam)),
      ).toEqual([]);
      await worker(now).drain();
      expect(smtp.received).toHaveLength(0);
    });

    it('the visitor can have the request sent again, or sent to a corrected address: the old link then confirms nothing and proof is asked again', async () => {
      const lead = await withEmail(50, 'mistyped@hospital.example');
      const held = bookingOf(await bookDemo(database.db, confirmOn, lead, friday10, now));
      expect(await resendProofRequest(database.db, confirmOn, lead, now + 60_000)).toBe('queued');
      await deliver(2);
      const oldToken = confirmLinkOf(smtp.received[0]!.parsed.text!);
      expect(
        await correctHeldAddress(
          database.db,
          confirmOn,
          lead,
          'right@hospital.example',
          now + 120_000,
        ),
      ).toBe('queued');
      await deliver(3);
      const corrected = smtp.received[2]!;
      expect(corrected.envelope.to).toEqual(['right@hospital.example']);
      expect(corrected.parsed.text).not.toMatch(typed);
      const rows = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.leadId, lead));
      expect(rows.map((row) => row.status).sort()).toEqual(['cancelled', 'held']);
      const renewed = rows.find((row) => row.status === 'held')!;
      expect([renewed.startsAt, renewed.heldUntil]).toEqual([held.startsAt, held.heldUntil]);
      // The old link names the dropped hold: it confirms nothing.
      expect(
        (
          await confirmHold(
            database.db,
            confirmOn,
            verifyConfirmToken(oldToken, TEST_SECRET, now)!,
            now + 180_000,
          )
        ).outcome,
      ).toBe('expired');
      const newToken = confirmLinkOf(corrected.parsed.text!);
      expect(
        (
          await confirmHold(
            database.db,
            confirmOn,
            verifyConfirmToken(newToken, TEST_SECRET, now)!,
            now + 180_000,
          )
        ).outcome,
      ).toBe('confirmed');
      // Proof belongs to that request: the same address's next booking waits for its own.
      const next = await withEmail(51, 'right@hospital.example');
      const later = await bookDemo(
        database.db,
        { ...confirmOn, caps: { perClient: 10, perEmail: 2 } },
        next,
        friday10 + hour,
        now + 200_000,
      );
      expect(later.outcome).toBe('held');
    });

    it("the visitor's invitation carries nothing typed, with confirmation off; the host's does", async () => {
      const lead = await addDemoLead(database.db, 60);
      bookingOf(await bookDemo(database.db, confirmOff, lead, friday10, now));
      await deliver(3); // the invitations and the reminder (due by the real clock)
      const visitorMails = smtp.received.filter(
        (mail) => mail.envelope.to[0] === 'visitor60@hospital.example',
      );
      expect(visitorMails).toHaveLength(2);
      const host = smtp.received.find((mail) => mail.envelope.to[0] === meera.email)!;
      /** The mail's text, HTML and calendar parts, decoded. */
      const ics = (mail: (typeof smtp.received)[number]) =>
        [
          mail.parsed.text ?? '',
          mail.parsed.html ?? '',
          ...mail.parsed.attachments.map((part) =>
            typeof part.content === 'string'
              ? part.content
              : new TextDecoder().decode(part.content),
          ),
        ].join('\n');
      for (const mail of visitorMails) {
        expect(ics(mail)).not.toMatch(typed);
        expect(mail.raw).not.toMatch(typed);
      }
      expect(ics(host)).toMatch(/Hospital 60/);
    });
  });
}
