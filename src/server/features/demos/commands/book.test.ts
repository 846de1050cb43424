import '@test/quiet-logs';
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { testBookingSettings } from '@test/demo-settings';
import type { Database } from '../../../platform/db/client';
import { demoBookings } from '../schema';
import { jobs as jobTable } from '../../../delivery/queue/schema';
import { leads } from '../../contact/schema';
import { createSmtpSender } from '../../../delivery/email/transport';
import { handle } from '../../../delivery/queue/job';
import { createWorker } from '../../../delivery/queue/worker';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { LEADS_FROM, LEADS_TO, fastRetry, until } from '@test/enquiry';
import { addDemoLead } from '@test/demo-lead';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { demoMailJob, sendDemoMail } from '../mails/mail-jobs';
import type { BookingSettings } from '../types';
import { freeSlots } from '../views/slots';
import { bookDemo } from './book';

const settings = testBookingSettings();
/** Thursday 5 March 2026, 05:30 IST: the first offered time is Friday 10:00 IST (04:30Z). */
const now = Date.parse('2026-03-05T00:00:00Z');
const firstSlot = Date.parse('2026-03-06T04:30:00Z');

/** The booking a `demo.mail` job announces. */
const bookingOf = (job: typeof jobTable.$inferSelect) =>
  (job.payload as { bookingId: string }).bookingId;
const isDemoMail = eq(jobTable.kind, demoMailJob.name);

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('demo booking', backend), () => {
    let database: TestDatabase;
    let second: Database | undefined;
    let smtp: TestSmtpServer;
    /** The second "instance" (another connection pool on PostgreSQL; the same database on PGlite). */
    const other = () => second?.db ?? database.db;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind, 30);
      if (database.url) second = await openSecondHandle(database.url);
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await smtp?.close();
      await second?.close();
      await database?.dispose();
    });

    it('20 visitors race for one time with two hosts: 2 get it, 18 see fresh times', async () => {
      const leadIds = await Promise.all(
        Array.from({ length: 20 }, (_, i) => addDemoLead(database.db, i)),
      );
      const started = performance.now();
      const results = await Promise.all(
        leadIds.map((leadId, i) =>
          bookDemo(i % 2 ? other() : database.db, settings, leadId, firstSlot, now),
        ),
      );
      const elapsed = Math.round(performance.now() - started);
      const booked = results.flatMap((result) =>
        result.outcome === 'booked' ? [result.booking] : [],
      );
      const gone = results.flatMap((result) =>
        result.outcome === 'slot-gone' ? [result.slots] : [],
      );
      console.log(
        `[${backend.kind}] race: ${booked.length} booked, ${gone.length} slot gone, ${elapsed} ms; hosts ${booked.map((b) => b.hostEmail).join(', ')}`,
      );
      expect(booked).toHaveLength(2);
      expect(gone).toHaveLength(18);
      expect(new Set(booked.map((booking) => booking.hostEmail))).toEqual(
        new Set(settings.hosts.map((host) => host.email)),
      );
      for (const slots of gone) {
        expect(slots.length).toBeGreaterThan(0);
        expect(slots.some((slot) => slot.start === firstSlot)).toBe(false);
      }
      const live = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.status, 'booked'));
      const keys = live.map((row) => `${row.hostEmail} ${row.startsAt.toISOString()}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(live).toHaveLength(2);
      // Two invitations and a reminder (due 24 h before: already past by the database's clock) each.
      expect(await database.db.select().from(jobTable).where(isDemoMail)).toHaveLength(6);
    });

    it('gives the next demo to the host with the fewest upcoming demos, one live demo per enquiry', async () => {
      const [a, b, c] = [
        await addDemoLead(database.db, 100),
        await addDemoLead(database.db, 101),
        await addDemoLead(database.db, 102),
      ];
      const secondSlot = firstSlot + 60 * 60_000;
      const first = await bookDemo(database.db, settings, a, secondSlot, now);
      const next = await bookDemo(database.db, settings, b, secondSlot, now);
      const third = await bookDemo(database.db, settings, c, secondSlot + 60 * 60_000, now);
      expect(
        [first, next, third].map(
          (result) => result.outcome === 'booked' && result.booking.hostEmail,
        ),
      ).toEqual(['meera@nirmaya.example', 'arjun@nirmaya.example', 'meera@nirmaya.example']);
      const again = await bookDemo(other(), settings, a, secondSlot + 2 * 60 * 60_000, now);
      expect(again.outcome).toBe('already-booked');
      expect(again.outcome === 'already-booked' && again.booking.startsAt.getTime()).toBe(
        secondSlot,
      );
      const left = await freeSlots(database.db, settings, now);
      expect(left.find((slot) => slot.start === secondSlot + 60 * 60_000)?.hosts).toEqual([
        'arjun@nirmaya.example',
      ]);
    });

    it('books a quarantined enquiry like a lead but announces nothing; never books an unknown one', async () => {
      const spam = await addDemoLead(database.db, 200, 'spam');
      const result = await bookDemo(database.db, settings, spam, firstSlot + 24 * 60 * 60_000, now);
      expect(result.outcome).toBe('booked');
      expect(await database.db.select().from(jobTable).where(eq(jobTable.owner, spam))).toEqual([]);
      expect(
        await bookDemo(database.db, settings, randomUUID(), firstSlot + 24 * 60 * 60_000, now),
      ).toEqual({ outcome: 'refused' });
    });

    it('the database refuses a second live demo of a host at one start, but not after a cancellation', async () => {
      const [row] = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.startsAt, new Date(firstSlot)))
        .limit(1);
      const lead = await addDemoLead(database.db, 300);
      const copy = {
        id: randomUUID(),
        leadId: lead,
        hostEmail: row!.hostEmail,
        startsAt: row!.startsAt,
        endsAt: row!.endsAt,
      };
      await expect(database.db.insert(demoBookings).values(copy)).rejects.toThrow();
      await database.db
        .update(demoBookings)
        .set({ status: 'cancelled' })
        .where(eq(demoBookings.id, row!.id));
      await database.db.insert(demoBookings).values(copy);
      await database.db
        .update(demoBookings)
        .set({ status: 'cancelled' })
        .where(eq(demoBookings.id, copy.id));
      await database.db
        .update(demoBookings)
        .set({ status: 'booked' })
        .where(eq(demoBookings.id, row!.id));
    });

    /** A queue worker sending the demo e-mails (`demo.mail` jobs) to the test SMTP server. */
    const demoWorker = () =>
      createWorker(database.db, [
        handle(
          demoMailJob,
          sendDemoMail(
            database.db,
            createSmtpSender(smtp.url),
            { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
            settings.hosts,
            undefined,
            () => now,
          ),
          fastRetry,
        ),
      ]);

    it('e-mails the visitor and the host (copy to LEADS_TO) an invitation an independent parser reads, and the reminder once; nothing for a cancelled demo', async () => {
      const [cancelled] = await database.db
        .update(demoBookings)
        .set({ status: 'cancelled' })
        .where(eq(demoBookings.startsAt, new Date(firstSlot + 2 * 60 * 60_000)))
        .returning();
      const jobs = await database.db.select().from(jobTable).where(isDemoMail);
      const live = jobs.filter((job) => bookingOf(job) !== cancelled!.id);
      expect(jobs.length - live.length).toBe(3);
      await demoWorker().drain();
      await until(async () => smtp.received.length >= live.length);
      await demoWorker().drain();
      expect(smtp.received).toHaveLength(live.length);
      expect(
        await database.db
          .select()
          .from(jobTable)
          .where(and(isDemoMail, eq(jobTable.status, 'sent'))),
      ).toHaveLength(jobs.length);
      const reminders = smtp.received.filter((mail) =>
        mail.parsed.subject?.startsWith('Reminder:'),
      );
      expect(reminders).toHaveLength(live.length / 3);
      expect(smtp.received.some((mail) => mail.parsed.messageId?.includes(cancelled!.id))).toBe(
        false,
      );
      console.log(
        `[${backend.kind}] ${jobs.length} demo jobs: ${smtp.received.length} e-mails (${reminders.length} reminders), none for the cancelled demo`,
      );

      const [booking] = await database.db
        .select()
        .from(demoBookings)
        .innerJoin(leads, eq(leads.id, demoBookings.leadId))
        .where(
          and(eq(demoBookings.startsAt, new Date(firstSlot)), eq(demoBookings.status, 'booked')),
        )
        .limit(1);
      const { demo_bookings: demo, leads: lead } = booking!;
      const mails = smtp.received.filter((mail) => mail.parsed.messageId?.includes(demo.id));
      const toVisitor = mails.find((mail) => mail.parsed.messageId?.includes('.visitor@'))!;
      const toHost = mails.find((mail) => mail.envelope.to.includes(demo.hostEmail))!;
      expect(toVisitor.envelope.to).toEqual([lead.email]);
      expect(toHost.envelope.to.sort()).toEqual([demo.hostEmail, LEADS_TO].sort());
      expect(toVisitor.parsed.subject).toBe(
        'Your Nirmaya HIMS demo: Friday, 6 March 2026, 10:00 IST',
      );
      expect(toVisitor.parsed.text).toContain(
        settings.hosts.find((host) => host.email === demo.hostEmail)!.meetingUrl,
      );

      for (const mail of [toVisitor, toHost]) {
        const part = mail.parsed.attachments.find(
          (attachment) => attachment.mimeType === 'text/calendar',
        )!;
        expect(part).toBeDefined();
        const text =
          typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
        if (mail === toVisitor)
          console.log(`[${backend.kind}] invitation received by the visitor:\n${text}`);
        const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
        expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
        const vevent = calendar.getFirstSubcomponent('vevent')!;
        const event = new ICAL.Event(vevent);
        expect(event.uid).toBe(`demo-${demo.id}@nirmaya.example`);
        expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-06T04:30:00.000Z');
        expect(vevent.getFirstProperty('dtstart')!.toICALString()).toBe('DTSTART:20260306T043000Z');
        expect(event.sequence).toBe(0);
        expect(String(vevent.getFirstPropertyValue('organizer')).toLowerCase()).toBe(
          `mailto:${demo.hostEmail}`,
        );
        const attendees = vevent
          .getAllProperties('attendee')
          .map((property) => String(property.getFirstValue()).toLowerCase());
        expect(attendees).toEqual([`mailto:${lead.email}`, `mailto:${demo.hostEmail}`]);
      }
    });

    it('holds the reminder until DEMO_REMINDER_HOURS before the demo, and queues none for a demo booked closer than that', async () => {
      const allDay: BookingSettings = {
        ...settings,
        rules: {
          ...settings.rules,
          hours: parseWeeklyHours('Mon-Sun 00:00-24:00'),
          noticeHours: 1,
        },
      };
      const clock = Date.now();
      const slots = await freeSlots(database.db, allDay, clock);
      const soon = slots.find((slot) => slot.start - clock < 20 * 60 * 60_000)!;
      const later = slots.find((slot) => slot.start - clock > 30 * 60 * 60_000)!;
      const near = await bookDemo(
        database.db,
        allDay,
        await addDemoLead(database.db, 400),
        soon.start,
        clock,
      );
      const far = await bookDemo(
        database.db,
        allDay,
        await addDemoLead(database.db, 401),
        later.start,
        clock,
      );
      const reminderOf = async (result: typeof near) =>
        result.outcome === 'booked'
          ? database.db
              .select()
              .from(jobTable)
              .where(
                and(
                  isDemoMail,
                  eq(sql`${jobTable.payload}->>'bookingId'`, result.booking.id),
                  eq(sql`${jobTable.payload}->>'mail'`, 'reminder'),
                ),
              )
          : [];
      expect(await reminderOf(near)).toEqual([]);
      const [held] = await reminderOf(far);
      expect(held!.dueAt.getTime()).toBe(later.start - 24 * 60 * 60_000);
      expect(held!.runAt.getTime()).toBe(later.start - 24 * 60 * 60_000);
      const before = smtp.received.length;
      await demoWorker().drain();
      await until(async () => smtp.received.length >= before + 4);
      expect(smtp.received).toHaveLength(before + 4);
      expect((await reminderOf(far))[0]!.status).toBe('pending');
    });
  });
}
