import '@test/quiet-logs';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { addDemoLead } from '@test/demo-lead';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { LEADS_FROM, LEADS_TO, TEST_SECRET, fastRetry, until } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { listDemos } from '../../console/views';
import type { Database } from '../../../platform/db/client';
import { demoBookings } from '../schema';
import { jobs as jobTable } from '../../../delivery/queue/schema';
import { createSmtpSender } from '../../../delivery/email/transport';
import { handle } from '../../../delivery/queue/job';
import { createWorker } from '../../../delivery/queue/worker';
import { HOLD_MS } from '../holds';
import { demoMailJob, sendDemoMail } from '../mails/mail-jobs';
import { confirmPageUrl, issueConfirmToken, verifyConfirmToken } from '../tokens';
import type { BookingResult, DemoBooking } from '../types';
import { confirmViewOf } from '../views/confirm-page';
import { freeSlots } from '../views/slots';
import { bookDemo } from './book';
import { confirmHold } from './confirm';
import { rescheduleDemo } from './reschedule';

/**
 * E-mail confirmation of bookings (`DEMO_CONFIRM_EMAIL`): one host giving one demo a day, so a
 * held time takes the host's whole day out of the offer; one upcoming demo per client address.
 */
const settings = testBookingSettings({
  hosts: [meera],
  rules: { maxPerDay: 1, bookingDays: 4 },
  caps: { perClient: 1, perEmail: 1 },
  webhookUrls: ['https://hooks.example/demo'],
  confirmEmail: true,
});
/** Thursday 5 March 2026, 05:30 IST: times are offered from Friday 10:00 IST (04:30Z). */
const now = Date.parse('2026-03-05T00:00:00Z');
const friday10 = Date.parse('2026-03-06T04:30:00Z');
const minute = 60_000;
/** Just after the hold of a booking made at `now` lapsed. */
const lapsed = now + HOLD_MS + minute;
const env = { DEMO_HOSTS: settings.hosts, DEMO_TIMEZONE: 'Asia/Kolkata' };

const bookingOf = (result: BookingResult): DemoBooking => {
  if (!('booking' in result)) throw new Error(`not booked: ${result.outcome}`);
  return result.booking;
};

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('demo e-mail confirmation', backend), () => {
    let database: TestDatabase;
    let second: Database | undefined;
    let smtp: TestSmtpServer;
    /** Another instance of the site (a second pool on PostgreSQL; the same database on PGlite). */
    const other = () => second?.db ?? database.db;
    beforeEach(async () => {
      database = await openTestDatabase(backend.kind, 12);
      if (database.url) second = await openSecondHandle(database.url);
      smtp = await startSmtpServer();
    });
    afterEach(async () => {
      await smtp?.close();
      await second?.close();
      second = undefined;
      await database?.dispose();
    });

    /** The kinds and mails of the jobs queued for `booking`, sorted. */
    const jobsOf = async (booking: DemoBooking) =>
      (await database.db.select().from(jobTable).where(eq(jobTable.owner, booking.leadId)))
        .map((job) => `${job.kind}:${(job.payload as { mail?: string }).mail ?? ''}`)
        .sort();
    const statusOf = async (id: string) =>
      (await database.db.select().from(demoBookings).where(eq(demoBookings.id, id)))[0]!;

    /** A worker sending demo e-mails to the test SMTP server, the confirm link signed for real. */
    const worker = (at: number) =>
      createWorker(database.db, [
        handle(
          demoMailJob,
          sendDemoMail(
            database.db,
            createSmtpSender(smtp.url),
            { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
            settings.hosts,
            {
              manage: async (id) => `https://nirmaya.example/contact-us/demo/manage?token=m-${id}`,
              confirm: async (booking) =>
                confirmPageUrl(
                  new URL('https://nirmaya.example'),
                  issueConfirmToken(booking.id, TEST_SECRET, booking.createdAt.getTime()),
                ),
            },
            () => at,
          ),
          fastRetry,
        ),
      ]);
    const deliver = async (count: number, at = now) => {
      await worker(at).drain();
      await until(async () => smtp.received.length >= count);
      await worker(at).drain();
      expect(smtp.received).toHaveLength(count);
    };

    it('holds the time for 30 minutes: not offered to others, counted by the caps, and nothing announced but the request to confirm', async () => {
      const lead = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, lead, friday10, now, 'client'));
      expect([held.status, held.heldUntil?.getTime()]).toEqual(['held', now + HOLD_MS]);
      expect(await jobsOf(held)).toEqual(['demo.mail:confirm']);

      // The whole Friday of the only host is gone (one demo a day), for others and on any instance.
      const offered = await freeSlots(other(), settings, now + HOLD_MS - minute);
      expect(offered.some((slot) => slot.start === friday10)).toBe(false);
      expect(offered.some((slot) => slot.start === friday10 + 60 * minute)).toBe(false);
      const rival = await addDemoLead(database.db, 2);
      expect((await bookDemo(other(), settings, rival, friday10, now)).outcome).toBe('slot-gone');
      // The client's one upcoming demo is the hold; the enquiry's own is the hold too.
      const sameClient = await addDemoLead(database.db, 3);
      const saturday = friday10 + 24 * 60 * minute;
      expect(await bookDemo(database.db, settings, sameClient, saturday, now, 'client')).toEqual({
        outcome: 'capped',
        cap: 'client',
      });
      expect(await bookDemo(database.db, settings, lead, saturday, now)).toMatchObject({
        outcome: 'already-booked',
        booking: { id: held.id, status: 'held' },
      });
      // The console's demos page shows it as held, then, past its time, as expired.
      const listed = async (at: number) =>
        (await listDemos(database.db, { when: 'upcoming', now: new Date(at) })).map(
          (demo) => demo.status,
        );
      expect(await listed(now)).toEqual(['held']);
      expect(await listed(lapsed)).toEqual(['expired']);
      console.log(
        `[${backend.kind}] held until ${held.heldUntil?.toISOString()}: ${offered.length} times offered to others, none on Friday`,
      );
    });

    it('e-mails only the request to confirm; opening the link changes nothing; the confirm POST sends the invitations to the visitor and the host; confirming twice is harmless', async () => {
      const lead = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, lead, friday10, now));
      await deliver(1);
      const [request] = smtp.received;
      expect(request!.envelope.to).toEqual(['visitor1@hospital.example']);
      expect(request!.parsed.subject).toBe('Confirm your Nirmaya HIMS demo');
      expect(request!.parsed.attachments).toEqual([]);
      expect(request!.parsed.html).toBeFalsy();
      // Only the site's words and the link: nothing typed, no day, time or host.
      expect(request!.parsed.text).toContain('We hold its time for 30 minutes.');
      expect(request!.parsed.to).toEqual([{ address: 'visitor1@hospital.example', name: '' }]);
      expect(request!.parsed.text).not.toMatch(/Visitor|Hospital|IST|Meera|March|Friday/);
      const link = request!.parsed.text!.match(/https:\/\/\S+\/contact-us\/demo\/confirm\?\S+/)![0];
      const token = new URL(link).searchParams.get('token');
      const bookingId = verifyConfirmToken(token, TEST_SECRET);
      expect(bookingId).toBe(held.id);
      expect(verifyConfirmToken(token, 'another-secret-0123456789abcdef0123456789')).toBeNull();

      // GET: the page reads the booking and changes nothing, however often a scanner opens it.
      for (let visit = 0; visit < 3; visit++)
        expect(await confirmViewOf(database.db, env, bookingId!, now + minute)).toMatchObject({
          kind: 'pending',
          heldUntil: '06:00 IST',
          lapsed: false,
        });
      expect((await statusOf(held.id)).status).toBe('held');
      expect(await jobsOf(held)).toEqual(['demo.mail:confirm']);
      await deliver(1);

      // POST: held → booked, the invitations (and the reminder, already due) and the event.
      const confirmed = await confirmHold(other(), settings, bookingId!, now + minute);
      expect(confirmed).toMatchObject({ outcome: 'confirmed', booking: { status: 'booked' } });
      expect(await statusOf(held.id)).toMatchObject({ status: 'booked', heldUntil: null });
      expect(await jobsOf(held)).toEqual([
        'demo.mail:confirm',
        'demo.mail:host',
        'demo.mail:reminder',
        'demo.mail:visitor',
        'demo.webhook:',
      ]);
      await deliver(4);
      const after = smtp.received.slice(1);
      const subjects = (address: string) =>
        after
          .filter((mail) => mail.envelope.to.includes(address))
          .map((mail) => mail.parsed.subject?.split(':')[0])
          .sort();
      expect(subjects('visitor1@hospital.example')).toEqual(['Reminder', 'Your Nirmaya HIMS demo']);
      expect(subjects(meera.email)).toEqual(['Demo NH-TEST00001 with Hospital 1']);
      expect(after.every((mail) => mail.parsed.subject !== request!.parsed.subject)).toBe(true);

      // Twice, and at once from two instances: nothing more is queued.
      const again = await Promise.all([
        confirmHold(database.db, settings, held.id, now + 2 * minute),
        confirmHold(other(), settings, held.id, now + 2 * minute),
      ]);
      expect(again.map((result) => result.outcome)).toEqual([
        'already-confirmed',
        'already-confirmed',
      ]);
      expect(await jobsOf(held)).toHaveLength(5);
      expect(await confirmViewOf(database.db, env, held.id, now)).toMatchObject({
        kind: 'confirmed',
      });
      console.log(
        `[${backend.kind}] mails: ${smtp.received.map((mail) => `${mail.envelope.to[0]}: ${mail.parsed.subject}`).join(' | ')}`,
      );
    });

    it('concurrent confirmations of one hold announce it once', async () => {
      const lead = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, lead, friday10, now));
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          confirmHold(i % 2 ? other() : database.db, settings, held.id, now + minute),
        ),
      );
      const outcomes = results.map((result) => result.outcome).sort();
      expect(outcomes.filter((outcome) => outcome === 'confirmed')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'already-confirmed')).toHaveLength(5);
      expect((await jobsOf(held)).filter((job) => job === 'demo.mail:visitor')).toHaveLength(1);
    });

    it('an unconfirmed hold frees its time after 30 minutes: offered again, booked by another (the lapsed hold released), its confirmation then "expired"; the request to confirm is no longer sent', async () => {
      const lead = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, lead, friday10, now, 'client'));
      expect(
        (await freeSlots(database.db, settings, lapsed)).some((slot) => slot.start === friday10),
      ).toBe(true);
      expect(await confirmViewOf(database.db, env, held.id, lapsed)).toMatchObject({
        kind: 'pending',
        lapsed: true,
      });
      // The client's cap no longer counts the lapsed hold.
      const sameClient = await addDemoLead(database.db, 2);
      const saturday = friday10 + 24 * 60 * minute;
      expect(
        (await bookDemo(database.db, settings, sameClient, saturday, lapsed, 'client')).outcome,
      ).toBe('held');

      // Ten visitors race for the freed time on two instances: one gets it.
      const rivals = await Promise.all(
        Array.from({ length: 10 }, (_, i) => addDemoLead(database.db, 10 + i)),
      );
      const results = await Promise.all(
        rivals.map((rival, i) =>
          bookDemo(i % 2 ? other() : database.db, settings, rival, friday10, lapsed),
        ),
      );
      const outcomes = results.map((result) => result.outcome);
      expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'slot-gone')).toHaveLength(9);
      expect((await statusOf(held.id)).status).toBe('expired');

      // Too late: the first visitor's confirmation finds the time taken, and nothing is announced.
      expect(await confirmHold(database.db, settings, held.id, lapsed)).toEqual({
        outcome: 'expired',
      });
      expect(await jobsOf(held)).toEqual(['demo.mail:confirm']);
      // The request to confirm, still queued when the hold lapsed, is dropped.
      await worker(lapsed).drain();
      expect(
        smtp.received.filter((mail) => mail.envelope.to.includes('visitor1@hospital.example')),
      ).toEqual([]);
      // The visitor can book again: their lapsed hold no longer counts as their enquiry's demo.
      const sunday = saturday + 24 * 60 * minute;
      expect((await bookDemo(database.db, settings, lead, sunday, lapsed)).outcome).toBe('held');
      console.log(`[${backend.kind}] lapsed-hold race: ${outcomes.sort().join(', ')}`);
    });

    it('a hold confirmed after it lapsed is booked when its time is still free', async () => {
      const lead = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, lead, friday10, now));
      const result = await confirmHold(database.db, settings, held.id, lapsed);
      expect(result).toMatchObject({ outcome: 'confirmed', booking: { status: 'booked' } });
      expect(await jobsOf(held)).toContain('demo.mail:visitor');
      const live = await database.db
        .select()
        .from(demoBookings)
        .where(and(eq(demoBookings.leadId, lead), eq(demoBookings.status, 'booked')));
      expect(live).toHaveLength(1);
    });

    it("a demo moves to a lapsed hold's time (the hold released first)", async () => {
      const holder = await addDemoLead(database.db, 1);
      const held = bookingOf(await bookDemo(database.db, settings, holder, friday10, now));
      const mover = await addDemoLead(database.db, 2);
      const saturday = friday10 + 24 * 60 * minute;
      const booked = bookingOf(
        await bookDemo(database.db, { ...settings, confirmEmail: false }, mover, saturday, now),
      );
      expect((await rescheduleDemo(database.db, settings, booked.id, friday10, now)).outcome).toBe(
        'slot-gone',
      );
      expect(
        await rescheduleDemo(database.db, settings, booked.id, friday10, lapsed),
      ).toMatchObject({ outcome: 'rescheduled', booking: { startsAt: new Date(friday10) } });
      expect((await statusOf(held.id)).status).toBe('expired');
    });

    it('without DEMO_CONFIRM_EMAIL books at once, as before', async () => {
      const lead = await addDemoLead(database.db, 1);
      const off = testBookingSettings({ hosts: [meera], webhookUrls: ['https://hooks.example/d'] });
      const booked = bookingOf(await bookDemo(database.db, off, lead, friday10, now));
      expect([booked.status, booked.heldUntil]).toEqual(['booked', null]);
      expect(await jobsOf(booked)).toEqual([
        'demo.mail:host',
        'demo.mail:reminder',
        'demo.mail:visitor',
        'demo.webhook:',
      ]);
    });
  });
}
