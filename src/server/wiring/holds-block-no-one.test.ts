import '@test/quiet-logs';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { TEST_SECRET, deps, formData, request } from '@test/enquiry';
import { mailsTo as mailsToOf, siteWorker } from '@test/site-worker';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { submitEnquiry } from '../features/contact/submit';
import { leads } from '../features/contact/schema';
import { bookDemo } from '../features/demos/commands/book';
import { confirmHold } from '../features/demos/commands/confirm';
import { announceReleased } from '../features/demos/commands/release';
import { releaseSpam } from '../features/contact/quarantine';
import { demoBookings } from '../features/demos/schema';
import { verifyConfirmToken } from '../features/demos/tokens';
import type { BookingResult } from '../features/demos/types';
import { hashClientAddress } from '../platform/http/client-address';
import { hashClientGroup } from '../platform/http/client-group';

/**
 * Holds block no one: a hold waiting for its confirmation does not count against the per-inbox cap
 * of another enquiry, the owner's confirmation displaces a stranger's hold with their address, and
 * unlapsed holds are limited per client group. The site's job wiring, a real SMTP server, both
 * databases.
 */

const hour = 3_600_000;
const settings = testBookingSettings({
  hosts: [meera],
  confirmEmail: true,
  secret: TEST_SECRET,
  caps: { perEmail: 1, perClient: 2, holdsPerGroup: 4 },
  rules: { maxPerDay: 10, bookingDays: 5, hours: parseWeeklyHours('Mon-Sun 10:00-18:00') },
});

/** A bookable time `days` ahead at 10:00 IST (04:30Z) plus `hours`, inside the test rules. */
function demoTime(days: number, hours = 0): number {
  const day = new Date(Date.now() + days * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30) + hours * hour;
}

/** The booking id of the request to confirm in `mail`, or null for another mail. */
function confirmedBookingOf(mail: ReceivedMail): string | null {
  const match = /\/contact-us\/demo\/confirm\?token=([^\s&]+)/.exec(mail.parsed.text ?? '');
  return match ? verifyConfirmToken(decodeURIComponent(match[1]!), TEST_SECRET) : null;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('holds block no one', backend), () => {
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

    const drain = async () => {
      const worker = siteWorker(database, smtp);
      await worker.drain();
      await worker.stop();
    };
    /** An enquiry for `email` posted from `client` (a bot's with `honeypot`), then its booking of `start`. */
    async function book(
      email: string,
      client: string,
      start: number,
      firstName = 'Visitor',
      honeypot = '',
    ): Promise<BookingResult> {
      const sent = await submitEnquiry(
        formData({ email, firstName }, { honeypot }),
        request(client),
        deps(database.db),
      );
      const [lead] = await database.db
        .select()
        .from(leads)
        .where(eq(leads.reference, (sent as { reference: string }).reference));
      return bookDemo(
        database.db,
        settings,
        lead!.id,
        start,
        Date.now(),
        hashClientAddress(client, TEST_SECRET),
        hashClientGroup(client, TEST_SECRET),
      );
    }
    const bookingId = (result: BookingResult) => (result as { booking: { id: string } }).booking.id;

    it("a stranger's hold, then the victim's own booking: held, asked to confirm, and confirmed; the stranger's hold gives way", async () => {
      const victim = 'priya@hospital.example';
      const stranger = await book(victim, '203.0.113.20', demoTime(2), 'Stranger');
      expect(stranger.outcome).toBe('held');
      const own = await book(victim, '198.51.100.20', demoTime(2, 1));
      // Not capped by the stranger's unconfirmed hold: a request to confirm, not "a demo exists".
      expect(own).toMatchObject({ outcome: 'held' });
      expect(own).not.toHaveProperty('cap');
      await drain();
      const asked = mailsToOf(smtp, victim).map(confirmedBookingOf);
      expect(asked.sort()).toEqual([bookingId(stranger), bookingId(own)].sort());

      expect(await confirmHold(database.db, settings, bookingId(own))).toMatchObject({
        outcome: 'confirmed',
      });
      const [displaced] = await database.db
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.id, bookingId(stranger)));
      expect(displaced!.status).toBe('cancelled');
      expect(await confirmHold(database.db, settings, bookingId(stranger))).toEqual({
        outcome: 'expired',
      });
      // Now that the inbox has its confirmed demo, a further booking with it tells its owner so.
      const third = await book('Priya+again@hospital.example', '192.0.2.20', demoTime(3));
      expect(third).toMatchObject({ outcome: 'held', cap: 'email' });
    });

    it('limits the unlapsed holds of one client group, not of the site', async () => {
      const outcomes = [];
      for (let i = 0; i < 5; i++)
        outcomes.push(
          (await book(`group-${i}@clinic.example`, `100.64.7.${i + 1}`, demoTime(4, i))).outcome,
        );
      // Four holds from the /24, the fifth refused as a client's cap; another group still holds.
      expect(outcomes).toEqual(['held', 'held', 'held', 'held', 'capped']);
      expect((await book('other@clinic.example', '100.64.8.1', demoTime(3, 1))).outcome).toBe(
        'held',
      );
    });

    it('a quarantined enquiry keeps its chosen time without holding it, and holds it on release only if still free', async () => {
      const release = (reference: string) =>
        releaseSpam(database.db, reference, {
          webhookUrls: [],
          onReleased: (tx, leadId) => announceReleased(tx, settings, leadId, Date.now()),
        });
      const referenceOf = async (bookingId: string) => {
        const [row] = await database.db
          .select({ reference: leads.reference })
          .from(demoBookings)
          .innerJoin(leads, eq(leads.id, demoBookings.leadId))
          .where(eq(demoBookings.id, bookingId));
        return row!.reference;
      };
      // Answered as a lead's booking, but the time is not held: a visitor books it at once.
      const kept = await book('human@clinic.example', '100.64.9.1', demoTime(3, 4), 'Human', 'x');
      expect(kept).toMatchObject({ outcome: 'held', booking: { status: 'requested' } });
      const taken = await book('quick@clinic.example', '100.64.10.1', demoTime(3, 4));
      expect(taken.outcome).toBe('held');
      // Another quarantined enquiry's time, still free when the operator releases it: held then.
      const free = await book('later@clinic.example', '100.64.11.1', demoTime(3, 5), 'Later', 'x');
      expect(await release(await referenceOf(bookingId(free)))).toBe('released');
      expect(await release(await referenceOf(bookingId(kept)))).toBe('released');
      const statusOf = async (id: string) =>
        (await database.db.select().from(demoBookings).where(eq(demoBookings.id, id)))[0]!.status;
      expect(await statusOf(bookingId(free))).toBe('held');
      expect(await statusOf(bookingId(kept))).toBe('expired');
      await drain();
      expect(mailsToOf(smtp, 'later@clinic.example').map(confirmedBookingOf)).toEqual([
        bookingId(free),
      ]);
      expect(mailsToOf(smtp, 'human@clinic.example')).toEqual([]);
    });
  });
}
