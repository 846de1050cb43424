import '@test/quiet-logs';
import { randomBytes, randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { and, eq, like, or, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { arjun, meera, testBookingSettings } from '@test/demo-settings';
import type { Db } from '../../../platform/db';
import type { Database } from '../../../platform/db/client';
import { demoBookings } from '../schema';
import { jobs as jobTable } from '../../../delivery/queue/schema';
import { leads } from '../../contact/schema';
import { createSmtpSender } from '../../../delivery/email/transport';
import { handle } from '../../../delivery/queue/job';
import { requeueFailed } from '../../../delivery/queue/operations';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { LEADS_FROM, LEADS_TO, fastRetry, testWorker, until } from '@test/enquiry';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { demoMailJob, sendDemoMail } from '../mails/mail-jobs';
import type { BookingSettings, DemoBooking, DemoEvent } from '../types';
import { freeSlots } from '../views/slots';
import { bookDemo } from './book';
import { cancelDemo } from './cancel';
import { rescheduleDemo } from './reschedule';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const baseSettings = testBookingSettings();
/** Thursday 5 March 2026, 05:30 IST: times are offered from Friday 10:00 IST (04:30Z), hourly to 12:00. */
const now = Date.parse('2026-03-05T00:00:00Z');
const hour = 60 * 60_000;
const friday10 = Date.parse('2026-03-06T04:30:00Z');
const manageUrl = async (bookingId: string) =>
  `https://nirmaya.example/manage?booking=${bookingId}`;

/** The booking a `demo.mail` job announces. */
const bookingOf = (job: typeof jobTable.$inferSelect) =>
  (job.payload as { bookingId: string }).bookingId;
/** The visitors' reminders (`demo.mail` jobs of mail `reminder`). */
const isReminder = and(
  eq(jobTable.kind, demoMailJob.name),
  eq(sql`${jobTable.payload}->>'mail'`, 'reminder'),
);

async function addLead(db: Db, name: string): Promise<string> {
  const id = randomUUID();
  await db.insert(leads).values({
    id,
    reference: `NH-${randomBytes(5).toString('hex').toUpperCase()}`,
    submissionId: id,
    firstName: name,
    lastName: 'Visitor',
    email: `${name.toLowerCase()}@hospital.example`,
    organization: `${name} Hospital`,
    subject: 'Schedule a Demo',
    demoRequested: true,
  });
  return id;
}

/** The text/calendar part of an e-mail, parsed by ical.js: METHOD and the one VEVENT. */
function calendarOf(mail: ReceivedMail) {
  const part = mail.parsed.attachments.find((item) => item.mimeType === 'text/calendar')!;
  const text =
    typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    text,
    method: calendar.getFirstPropertyValue('method'),
    uid: event.uid,
    sequence: event.sequence,
    start: vevent.getFirstProperty('dtstart')!.toICALString(),
    status: vevent.getFirstPropertyValue('status'),
    organizer: String(vevent.getFirstPropertyValue('organizer')).toLowerCase(),
    attendees: vevent
      .getAllProperties('attendee')
      .map((property) => String(property.getFirstValue()).toLowerCase()),
  };
}

const dtstart = (at: number) =>
  `DTSTART:${new Date(at).toISOString().replace(/[-:]/g, '').replace('.000', '')}`;

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('demo reschedule and cancel: e-mails, reminders and events', backend),
    () => {
      let database: TestDatabase;
      let second: Database | undefined;
      let smtp: TestSmtpServer;
      let receiver: TestWebhookReceiver;
      let settings: BookingSettings;
      const other = () => second?.db ?? database.db;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        if (database.url) second = await openSecondHandle(database.url);
        smtp = await startSmtpServer();
        receiver = await startWebhookReceiver();
        settings = { ...baseSettings, webhookUrls: [receiver.url] };
      });
      afterAll(async () => {
        await receiver?.close();
        await smtp?.close();
        await second?.close();
        await database?.dispose();
      });

      /** A queue worker sending demo e-mails to the test SMTP server and webhooks to the receiver. */
      const worker = () =>
        testWorker(database.db, undefined, { secret: SECRET }, [
          handle(
            demoMailJob,
            sendDemoMail(
              database.db,
              createSmtpSender(smtp.url),
              { from: LEADS_FROM, copyTo: LEADS_TO, timeZone: 'Asia/Kolkata' },
              settings.hosts,
              { manage: manageUrl, confirm: () => Promise.reject(new Error('no holds here')) },
              () => now,
            ),
            fastRetry,
          ),
        ]);
      /** The dedupe keys of the jobs of a booking: its e-mails and its webhook events. */
      const targets = async (bookingId: string) =>
        (
          await database.db
            .select({ key: jobTable.dedupeKey })
            .from(jobTable)
            .where(
              or(
                eq(sql`${jobTable.payload}->>'bookingId'`, bookingId),
                eq(sql`${jobTable.payload}#>>'{event,data,bookingId}'`, bookingId),
              ),
            )
        )
          .map((job) => job.key.replace(bookingId, 'ID').replace(receiver.url, 'URL'))
          .sort();
      /** Runs the worker and returns the e-mails it sent. */
      const deliver = async (expected: number): Promise<ReceivedMail[]> => {
        const before = smtp.received.length;
        await worker().drain();
        await until(async () => smtp.received.length >= before + expected);
        await worker().drain();
        expect(smtp.received.length - before).toBe(expected);
        return smtp.received.slice(before);
      };
      const to = (mails: ReceivedMail[], address: string) =>
        mails.filter((mail) => mail.envelope.to.includes(address));

      it('reschedules and cancels: the right jobs, e-mails an independent parser reads, and signed events', async () => {
        const leadId = await addLead(database.db, 'Asha');
        const booked = await bookDemo(database.db, settings, leadId, friday10, now);
        expect(booked.outcome).toBe('booked');
        const original = (booked as { booking: DemoBooking }).booking;
        expect(original.hostEmail).toBe(meera.email);
        const uid = `demo-${original.id}@nirmaya.example`;
        const email = 'asha@hospital.example';

        // 1. Same host, an hour later: updated invitations, a fresh reminder; nothing of sequence 0 is sent.
        const moved = await rescheduleDemo(
          database.db,
          settings,
          original.id,
          friday10 + hour,
          now,
        );
        expect(moved.outcome).toBe('rescheduled');
        const first = (moved as { booking: DemoBooking }).booking;
        expect([first.id, first.hostEmail, first.sequence]).toEqual([original.id, meera.email, 1]);
        expect(await targets(original.id)).toEqual([
          'demo.mail:host:ID:0',
          'demo.mail:host:ID:1',
          'demo.mail:reminder:ID:0',
          'demo.mail:reminder:ID:1',
          'demo.mail:visitor:ID:0',
          'demo.mail:visitor:ID:1',
          'demo.webhook:URL#demo.booked:ID:0',
          'demo.webhook:URL#demo.rescheduled:ID:1',
        ]);
        const afterMove = await deliver(3);
        const visitorMails = to(afterMove, email);
        expect(visitorMails.map((mail) => mail.parsed.subject).sort()).toEqual([
          'Reminder: your Nirmaya HIMS demo, Friday, 6 March 2026, 11:00 IST',
          'Updated: Your Nirmaya HIMS demo: Friday, 6 March 2026, 11:00 IST',
        ]);
        for (const mail of visitorMails)
          expect(mail.parsed.text).toContain(await manageUrl(original.id));
        expect(to(afterMove, meera.email)[0]!.parsed.text).not.toContain('manage?booking');
        for (const mail of [
          ...visitorMails.filter((m) => m.parsed.attachments.length),
          ...to(afterMove, meera.email),
        ]) {
          const calendar = calendarOf(mail);
          expect(calendar).toMatchObject({
            method: 'REQUEST',
            uid,
            sequence: 1,
            start: dtstart(friday10 + hour),
            organizer: `mailto:${meera.email}`,
            attendees: [`mailto:${email}`, `mailto:${meera.email}`],
          });
        }
        console.log(
          `[${backend.kind}] rescheduled invitation received by the visitor:\n${calendarOf(visitorMails.find((m) => m.parsed.attachments.length)!).text}`,
        );

        // 2. To a time only Arjun has free: REQUEST to Arjun (copied to LEADS_TO), CANCEL to Meera.
        const blocker = await addLead(database.db, 'Blocker');
        await database.db.insert(demoBookings).values({
          id: randomUUID(),
          leadId: blocker,
          hostEmail: meera.email,
          startsAt: new Date(friday10 + 2 * hour),
          endsAt: new Date(friday10 + 2 * hour + 45 * 60_000),
        });
        const handedOver = await rescheduleDemo(
          database.db,
          settings,
          original.id,
          friday10 + 2 * hour,
          now,
        );
        const second = (handedOver as { booking: DemoBooking }).booking;
        expect([handedOver.outcome, second.hostEmail, second.sequence]).toEqual([
          'rescheduled',
          arjun.email,
          2,
        ]);
        const afterHandover = await deliver(4);
        const toArjun = to(afterHandover, arjun.email);
        expect(toArjun).toHaveLength(1);
        expect(toArjun[0]!.envelope.to.sort()).toEqual([arjun.email, LEADS_TO].sort());
        expect(calendarOf(toArjun[0]!)).toMatchObject({
          method: 'REQUEST',
          uid,
          sequence: 2,
          start: dtstart(friday10 + 2 * hour),
          organizer: `mailto:${arjun.email}`,
        });
        const toMeera = to(afterHandover, meera.email);
        expect(toMeera).toHaveLength(1);
        expect(toMeera[0]!.parsed.text).toContain('has moved to another host');
        expect(calendarOf(toMeera[0]!)).toMatchObject({
          method: 'CANCEL',
          uid,
          sequence: 2,
          status: 'CANCELLED',
          start: dtstart(friday10 + hour),
          organizer: `mailto:${meera.email}`,
          attendees: [`mailto:${email}`, `mailto:${meera.email}`],
        });

        // 3. Cancel: CANCEL to the visitor and Arjun (copied to LEADS_TO), the time freed, no reminder.
        const cancelled = await cancelDemo(database.db, settings, original.id, now);
        expect(cancelled.outcome).toBe('cancelled');
        expect(await cancelDemo(other(), settings, original.id, now)).toEqual({
          outcome: 'not-live',
        });
        expect(await rescheduleDemo(other(), settings, original.id, friday10, now)).toEqual({
          outcome: 'not-live',
        });
        expect((await targets(original.id)).filter((target) => target.endsWith(':3'))).toEqual([
          'demo.mail:host-cancel:ID:3',
          'demo.mail:visitor-cancel:ID:3',
          'demo.webhook:URL#demo.cancelled:ID:3',
        ]);
        const afterCancel = await deliver(2);
        for (const [mail, organizer] of [
          [to(afterCancel, email)[0]!, arjun.email],
          [to(afterCancel, arjun.email)[0]!, arjun.email],
        ] as const) {
          expect(mail.parsed.subject).toMatch(/^Cancelled: /);
          const calendar = calendarOf(mail);
          expect(calendar).toMatchObject({
            method: 'CANCEL',
            uid,
            sequence: 3,
            status: 'CANCELLED',
            start: dtstart(friday10 + 2 * hour),
            organizer: `mailto:${organizer}`,
          });
          if (mail.envelope.to.includes(email))
            console.log(
              `[${backend.kind}] cancellation received by the visitor:\n${calendar.text}`,
            );
        }
        expect(to(afterCancel, arjun.email)[0]!.envelope.to).toContain(LEADS_TO);
        const free = await freeSlots(database.db, settings, now);
        expect(free.find((slot) => slot.start === friday10 + 2 * hour)?.hosts).toEqual([
          arjun.email,
        ]);

        // 4. The four events, each its own signed request, verified with standardwebhooks.
        await until(async () => receiver.delivered().length >= 4);
        const events = receiver
          .delivered()
          .map((request) => new Webhook(SECRET).verify(request.body, request.headers) as DemoEvent)
          .sort((a, b) => a.data.sequence - b.data.sequence);
        expect(
          new Set(receiver.delivered().map((request) => request.headers['webhook-id'])).size,
        ).toBe(4);
        expect(
          events.map(({ type, version, data }) => [
            type,
            version,
            data.sequence,
            data.start,
            data.previousStart,
            data.host.name,
          ]),
        ).toEqual([
          ['demo.booked', 1, 0, '2026-03-06T04:30:00.000Z', undefined, 'Meera Iyer'],
          [
            'demo.rescheduled',
            1,
            1,
            '2026-03-06T05:30:00.000Z',
            '2026-03-06T04:30:00.000Z',
            'Meera Iyer',
          ],
          [
            'demo.rescheduled',
            1,
            2,
            '2026-03-06T06:30:00.000Z',
            '2026-03-06T05:30:00.000Z',
            'Arjun Sen',
          ],
          ['demo.cancelled', 1, 3, '2026-03-06T06:30:00.000Z', undefined, 'Arjun Sen'],
        ]);
        expect(events[3]!.data).toMatchObject({
          bookingId: original.id,
          end: '2026-03-06T07:15:00.000Z',
          host: { name: 'Arjun Sen', email: arjun.email },
        });
        const [lead] = await database.db.select().from(leads).where(eq(leads.id, leadId));
        expect(events.every((event) => event.data.reference === lead!.reference)).toBe(true);
        // Each event is stamped with the clock of the change it announces.
        expect(events.map((event) => event.timestamp)).toEqual(
          Array(4).fill(new Date(now).toISOString()),
        );
        console.log(
          `[${backend.kind}] ${smtp.received.length} e-mails, events ${events.map((event) => `${event.type}#${event.data.sequence}`).join(', ')}`,
        );
      });

      it('two visitors reschedule to the last free time at once: one gets it, the other keeps their demo and sees fresh times', async () => {
        const oneHost: BookingSettings = { ...settings, hosts: [meera] };
        const saturday = Date.parse('2026-03-07T04:30:00Z');
        const [a, b] = [await addLead(database.db, 'Ravi'), await addLead(database.db, 'Nina')];
        const first = await bookDemo(database.db, oneHost, a, saturday, now);
        const next = await bookDemo(database.db, oneHost, b, saturday + hour, now);
        const ids = [first, next].map((result) => (result as { booking: DemoBooking }).booking.id);
        const started = performance.now();
        const results = await Promise.all([
          rescheduleDemo(database.db, oneHost, ids[0]!, saturday + 2 * hour, now),
          rescheduleDemo(other(), oneHost, ids[1]!, saturday + 2 * hour, now),
        ]);
        const elapsed = Math.round(performance.now() - started);
        const outcomes = results.map((result) => result.outcome).sort();
        console.log(`[${backend.kind}] reschedule race: ${outcomes.join(', ')} in ${elapsed} ms`);
        expect(outcomes).toEqual(['rescheduled', 'slot-gone']);
        const loser = results.findIndex((result) => result.outcome === 'slot-gone');
        const gone = results[loser] as { slots: { start: number }[] };
        expect(gone.slots.length).toBeGreaterThan(0);
        expect(gone.slots.some((slot) => slot.start === saturday + 2 * hour)).toBe(false);
        const [kept] = await database.db
          .select()
          .from(demoBookings)
          .where(eq(demoBookings.id, ids[loser]!));
        expect([kept!.status, kept!.sequence, kept!.startsAt.getTime()]).toEqual([
          'booked',
          0,
          loser === 0 ? saturday : saturday + hour,
        ]);
        expect(await targets(ids[loser]!)).not.toContain('demo.mail:visitor:ID:1');
        // Each visitor gets one invitation and one reminder for the time they hold; the host two invitations.
        const mails = await deliver(6);
        const loserEmail = loser === 0 ? 'ravi@hospital.example' : 'nina@hospital.example';
        expect(to(mails, loserEmail).map((mail) => mail.parsed.subject?.split(':')[0])).toEqual(
          expect.arrayContaining(['Your Nirmaya HIMS demo', 'Reminder']),
        );
        expect(mails.filter((mail) => mail.parsed.subject?.startsWith('Updated:'))).toHaveLength(2);
      });

      it('with a test clock, sends the reminder once when it is due, never for a cancelled demo nor for the time before a reschedule', async () => {
        const allDay: BookingSettings = {
          ...settings,
          webhookUrls: [],
          rules: {
            ...settings.rules,
            hours: parseWeeklyHours('Mon-Sun 00:00-24:00'),
            noticeHours: 1,
          },
        };
        const clock = Date.now();
        const later = (await freeSlots(database.db, allDay, clock)).filter(
          (slot) => slot.start - clock > 30 * hour,
        );
        const book = async (name: string, start: number) =>
          (
            (await bookDemo(
              database.db,
              allDay,
              await addLead(database.db, name),
              start,
              clock,
            )) as {
              booking: DemoBooking;
            }
          ).booking;
        const kept = await book('Kept', later[0]!.start);
        const dropped = await book('Dropped', later[1]!.start);
        const movedFrom = await book('Moved', later[2]!.start);
        await cancelDemo(database.db, allDay, dropped.id, clock);
        await rescheduleDemo(database.db, allDay, movedFrom.id, later[3]!.start, clock);
        const reminders = await database.db.select().from(jobTable).where(isReminder);
        const due = (booking: DemoBooking) =>
          reminders.filter((job) => bookingOf(job) === booking.id);
        expect(due(kept)[0]!.dueAt.getTime()).toBe(later[0]!.start - 24 * hour);
        expect(due(kept)[0]!.runAt.getTime()).toBe(later[0]!.start - 24 * hour);
        expect(
          due(movedFrom)
            .map((job) => job.dueAt.getTime())
            .sort(),
        ).toEqual([later[2]!.start - 24 * hour, later[3]!.start - 24 * hour]);
        expect(
          due(movedFrom)
            .map((job) => job.runAt.getTime())
            .sort(),
        ).toEqual([later[2]!.start - 24 * hour, later[3]!.start - 24 * hour]);
        // Before the reminder time: only invitations and cancellations leave.
        const early = await deliver(6);
        expect(early.filter((mail) => mail.parsed.subject?.startsWith('Reminder:'))).toEqual([]);
        // The clock reaches every reminder time: their not-before moves to the past.
        const ids = [kept, dropped, movedFrom].map((booking) => booking.id);
        for (const id of ids) {
          const past = new Date(Date.now() - 1_000);
          await database.db
            .update(jobTable)
            .set({ dueAt: past, runAt: past })
            .where(and(isReminder, eq(sql`${jobTable.payload}->>'bookingId'`, id)));
        }
        const sent = await deliver(2);
        expect(sent.map((mail) => mail.parsed.subject?.startsWith('Reminder:'))).toEqual([
          true,
          true,
        ]);
        expect(sent.map((mail) => mail.envelope.to[0]).sort()).toEqual([
          'kept@hospital.example',
          'moved@hospital.example',
        ]);
        const movedReminder = sent.find(
          (mail) => mail.envelope.to[0] === 'moved@hospital.example',
        )!;
        expect(movedReminder.parsed.messageId).toContain(`${movedFrom.id}.1.reminder`);
        await deliver(0);
        console.log(
          `[${backend.kind}] reminders: ${reminders.length} queued, ${sent.length} sent once due (kept, moved), none for the cancelled demo or the old time`,
        );
      });

      it('a demo event an endpoint refuses (410) is marked failed and re-sent by leads retry with its webhook-id', async () => {
        await worker().drain();
        receiver.reset();
        receiver.reply = (index) => ({ status: index === 0 ? 410 : 204 });
        const leadId = await addLead(database.db, 'Retry');
        const booked = await bookDemo(database.db, settings, leadId, friday10 + 24 * hour, now);
        expect(booked.outcome).toBe('booked');
        await worker().drain();
        const [job] = await database.db
          .select()
          .from(jobTable)
          .where(and(eq(jobTable.owner, leadId), like(jobTable.kind, '%.webhook')));
        expect([job!.status, job!.lastError]).toEqual(['failed', 'HTTP 410']);
        expect(await requeueFailed(database.db)).toBe(1);
        await worker().drain();
        expect(receiver.received.map((request) => request.status)).toEqual([410, 204]);
        const [refused, accepted] = receiver.received;
        expect(accepted!.headers['webhook-id']).toBe(refused!.headers['webhook-id']);
        expect(accepted!.body).toBe(refused!.body);
        expect(
          (new Webhook(SECRET).verify(accepted!.body, accepted!.headers) as DemoEvent).type,
        ).toBe('demo.booked');
      });
    },
  );
}
