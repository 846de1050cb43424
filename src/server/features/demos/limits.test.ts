import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBookingSettings } from '@test/demo-settings';
import { bookingNotices } from '@/content/demo-booking';
import { bookOutcomeOf } from './forms';
import { localDate } from '@/lib/demo/slots';
import type { Database } from '../../platform/db/client';
import { demoBookings } from './schema';
import { leads } from '../contact/schema';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { addDemoLead } from '@test/demo-lead';
import { bookDemo } from './commands/book';
import { rescheduleDemo } from './commands/reschedule';
import type { BookingResult, BookingSettings } from './types';

const hour = 60 * 60_000;
const day = 24 * hour;
const settings = testBookingSettings({
  rules: { bookingDays: 8 },
  caps: { perClient: 2, perEmail: 1 },
});
/** One host giving at most one demo a day. */
const onePerDay: BookingSettings = {
  ...settings,
  rules: { ...settings.rules, maxPerDay: 1 },
  hosts: settings.hosts.slice(0, 1),
};
/** Thursday 5 March 2026, 05:30 IST: the first offered time is Friday 10:00 IST (04:30Z). */
const now = Date.parse('2026-03-05T00:00:00Z');
const firstSlot = Date.parse('2026-03-06T04:30:00Z');

const summary = (results: BookingResult[]) =>
  results.map((result) => (result.outcome === 'capped' ? `capped:${result.cap}` : result.outcome));

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('demo booking caps', backend), () => {
    let database: TestDatabase;
    let second: Database | undefined;
    /** The second "instance" (another connection pool on PostgreSQL; the same database on PGlite). */
    const other = () => second?.db ?? database.db;
    const handle = (i: number) => (i % 2 ? other() : database.db);
    /** A demo enquiry of visitor `index`, with the e-mail address `email` when given. */
    const lead = async (index: number, email?: string) => {
      const id = await addDemoLead(database.db, index);
      if (email) await database.db.update(leads).set({ email }).where(eq(leads.id, id));
      return id;
    };
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind, 20);
      if (database.url) second = await openSecondHandle(database.url);
    });
    afterAll(async () => {
      await second?.close();
      await database?.dispose();
    });

    it('one client address, four e-mail addresses, booking at once on two instances: two booked, the third and fourth refused with the sentence', async () => {
      const ids = await Promise.all([1, 2, 3, 4].map((i) => lead(i)));
      const results = await Promise.all(
        ids.map((id, i) =>
          bookDemo(handle(i), settings, id, firstSlot + (i % 2) * hour, now, 'client-a'),
        ),
      );
      console.log(`[${backend.kind}] one client, four e-mails: ${summary(results).join(', ')}`);
      expect(results.filter((result) => result.outcome === 'booked')).toHaveLength(2);
      const refused = results.filter((result) => result.outcome === 'capped');
      expect(refused).toHaveLength(2);
      expect(refused.every((result) => result.cap === 'client')).toBe(true);
      // The page is told `capped`, as for the e-mail's cap: one answer for both.
      expect(refused.map(bookOutcomeOf)).toEqual(['capped', 'capped']);
      const stored = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.clientHash, 'client-a'));
      expect(stored).toHaveLength(2);
      // Another client address books as usual.
      const fifth = await bookDemo(
        database.db,
        settings,
        await lead(5),
        firstSlot + 2 * hour,
        now,
        'client-b',
      );
      expect(fifth.outcome).toBe('booked');
    });

    it('one e-mail address (any case) books once, across enquiries and client addresses; the refusal names its demo', async () => {
      const ids = await Promise.all([
        lead(11, 'Same.Person@hospital.example'),
        lead(12, 'same.person@hospital.example'),
        lead(13, 'SAME.PERSON@HOSPITAL.EXAMPLE'),
      ]);
      const results = await Promise.all(
        ids.map((id, i) =>
          bookDemo(handle(i), settings, id, firstSlot + day + i * hour, now, `client-${10 + i}`),
        ),
      );
      console.log(`[${backend.kind}] one e-mail, three enquiries: ${summary(results).join(', ')}`);
      const booked = results.flatMap((result) =>
        result.outcome === 'booked' ? [result.booking] : [],
      );
      expect(booked).toHaveLength(1);
      const refused = results.filter((result) => result.outcome === 'capped');
      expect(refused).toHaveLength(2);
      for (const result of refused) {
        expect(result.cap === 'email' && result.booking.id).toBe(booked[0]!.id);
      }
      // Without confirmation by e-mail the page is told `capped`, as for the connection's cap:
      // its one sentence says neither that this address has a demo nor when.
      expect(refused.map(bookOutcomeOf)).toEqual(['capped', 'capped']);
      expect(bookingNotices.capped).not.toMatch(
        /\d|IST|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|March|address already has/,
      );
      expect(bookingNotices.capped).toMatch(/per e-mail address and per connection/);
      // Once that demo is over, the address can book again (with an enquiry that was refused).
      const later = await bookDemo(
        database.db,
        settings,
        ids[results.findIndex((result) => result.outcome === 'capped')]!,
        booked[0]!.startsAt.getTime() + day,
        booked[0]!.endsAt.getTime(),
        'client-12',
      );
      expect(later.outcome).toBe('booked');
    });
  });

  describe.skipIf(backend.skipReason)(backendTitle('DEMO_MAX_PER_DAY under races', backend), () => {
    let database: TestDatabase;
    let second: Database | undefined;
    const other = () => second?.db ?? database.db;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind, 20);
      if (database.url) second = await openSecondHandle(database.url);
    });
    afterAll(async () => {
      await second?.close();
      await database?.dispose();
    });

    it('DEMO_MAX_PER_DAY=1: two bookings of different times on one day, at once on two instances, book exactly one (five days)', async () => {
      const started = performance.now();
      const perDay: string[] = [];
      for (let d = 0; d < 5; d++) {
        const [a, b] = [
          await addDemoLead(database.db, 2 * d),
          await addDemoLead(database.db, 2 * d + 1),
        ];
        const results = await Promise.all([
          bookDemo(database.db, onePerDay, a, firstSlot + d * day, now),
          bookDemo(other(), onePerDay, b, firstSlot + d * day + 2 * hour, now),
        ]);
        perDay.push(summary(results).join('+'));
        expect(results.filter((result) => result.outcome === 'booked')).toHaveLength(1);
        const gone = results.find((result) => result.outcome === 'slot-gone');
        expect(gone).toBeDefined();
        expect(
          gone?.outcome === 'slot-gone' &&
            gone.slots.some(
              (slot) =>
                localDate(slot.start, 'Asia/Kolkata') ===
                localDate(firstSlot + d * day, 'Asia/Kolkata'),
            ),
        ).toBe(false);
      }
      const live = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.status, 'booked'));
      console.log(
        `[${backend.kind}] max 1 a day, 5 days of 2 concurrent bookings: ${perDay.join(', ')}; ${live.length} booked, ${Math.round(performance.now() - started)} ms`,
      );
      expect(live).toHaveLength(5);
    });

    it('a reschedule into a day races a booking of that day: exactly one gets it', async () => {
      const moving = await addDemoLead(database.db, 100);
      const target = firstSlot + 6 * day;
      const first = await bookDemo(database.db, onePerDay, moving, firstSlot + 5 * day, now);
      expect(first.outcome).toBe('booked');
      const bookingId = first.outcome === 'booked' ? first.booking.id : '';
      const newcomer = await addDemoLead(database.db, 101);
      const [moved, booked] = await Promise.all([
        rescheduleDemo(database.db, onePerDay, bookingId, target, now),
        bookDemo(other(), onePerDay, newcomer, target + hour, now),
      ]);
      console.log(
        `[${backend.kind}] reschedule vs booking on a full day: ${moved.outcome}, ${booked.outcome}`,
      );
      expect(
        [moved.outcome === 'rescheduled', booked.outcome === 'booked'].filter(Boolean),
      ).toHaveLength(1);
      const onTarget = (await database.db.select().from(demoBookings)).filter(
        (row) =>
          row.status === 'booked' &&
          row.startsAt.getTime() >= target &&
          row.startsAt.getTime() < target + day,
      );
      expect(onTarget).toHaveLength(1);
      // Moving a demo within its own day is not refused by its own booking.
      const own = onTarget[0]!;
      const within = await rescheduleDemo(
        database.db,
        onePerDay,
        own.id,
        own.startsAt.getTime() + hour,
        now,
      );
      expect(within.outcome).toBe('rescheduled');
    });
  });
}
