import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, gte, lt } from 'drizzle-orm';
import { computeSlots, type DemoRules, type HostCalendar, type Slot } from '@/lib/demo/slots';
import type { Db } from '../db';
import { demoBookings, leads } from '../db/schema';
import type { DemoHost } from './config';
import { announceChange } from './announce';
import { processFeeds, type BusyFeeds } from './feeds';

/** A stored demo booking. */
export type DemoBooking = typeof demoBookings.$inferSelect;

/**
 * The booking configuration from the `DEMO_*` variables: the rules, the hosts and how many hours
 * before a demo the visitor is reminded (`DEMO_REMINDER_HOURS`); the endpoints of `WEBHOOK_URLS`
 * that get the `demo.*` events (none when absent).
 */
export type BookingSettings = {
  rules: DemoRules;
  hosts: readonly DemoHost[];
  reminderHours: number;
  /** Where the hosts' busy times come from; default this process's feed cache (processFeeds). */
  feeds?: BusyFeeds;
  /** `WEBHOOK_URLS`: each booking change is announced to them (demo.* events, issue 16). */
  webhookUrls?: readonly string[];
};

/**
 * What a booking request did: `booked` (now, or `already-booked` earlier: one live demo per
 * enquiry), `slot-gone` with the times free now, or `refused` (no such enquiry, or a quarantined one).
 */
export type BookingResult =
  | { outcome: 'booked' | 'already-booked'; booking: DemoBooking }
  | { outcome: 'slot-gone'; slots: Slot[] }
  | { outcome: 'refused' };

const day = 24 * 60 * 60_000;

/**
 * Each host's calendar for computeSlots at `now` (ms): live bookings from a day before now to the
 * end of the booking window, and busy times from `settings.feeds` (the union of the host's feeds;
 * unknown, so the host offers nothing, while one of them has no copy younger than
 * `DEMO_FEED_MAX_AGE_HOURS`: src/server/demo/feeds.ts); a host without feeds is busy only with
 * its bookings.
 */
export async function hostCalendars(
  db: Db,
  settings: BookingSettings,
  now: number,
): Promise<HostCalendar[]> {
  const rows = await db
    .select({
      hostEmail: demoBookings.hostEmail,
      startsAt: demoBookings.startsAt,
      endsAt: demoBookings.endsAt,
    })
    .from(demoBookings)
    .where(
      and(
        eq(demoBookings.status, 'booked'),
        gte(demoBookings.startsAt, new Date(now - day)),
        lt(demoBookings.startsAt, new Date(now + (settings.rules.bookingDays + 1) * day)),
      ),
    );
  const feeds = settings.feeds ?? processFeeds();
  return settings.hosts.map((host) => ({
    email: host.email,
    busy: feeds.busyOf(host.busyFeeds, now),
    bookings: rows
      .filter((row) => row.hostEmail.toLowerCase() === host.email.toLowerCase())
      .map((row) => ({ start: row.startsAt.getTime(), end: row.endsAt.getTime() })),
  }));
}

/**
 * The host e-mails `hosts` ordered from the one with the fewest upcoming demos (from `now`, ms) in
 * `calendars` (round robin, issue 16 item 3); ties keep their order (`DEMO_HOSTS` order).
 */
export function hostsByLoad(
  hosts: readonly string[],
  calendars: readonly HostCalendar[],
  now: number,
): string[] {
  const upcoming = (email: string) =>
    calendars
      .find((host) => host.email === email)!
      .bookings.filter((booking) => booking.start >= now).length;
  return [...hosts].sort((a, b) => upcoming(a) - upcoming(b));
}

/** The demo times free at `now` (ms since the epoch), sorted, each with its free hosts. */
export async function freeSlots(
  db: Db,
  settings: BookingSettings,
  now: number = Date.now(),
): Promise<Slot[]> {
  return computeSlots(settings.rules, await hostCalendars(db, settings, now), now);
}

/** The live booking of a lead, if any. */
export async function liveBooking(db: Db, leadId: string): Promise<DemoBooking | undefined> {
  const [row] = await db
    .select()
    .from(demoBookings)
    .where(and(eq(demoBookings.leadId, leadId), eq(demoBookings.status, 'booked')));
  return row;
}

/**
 * Books the demo at `start` (ms) for the lead `leadId` (issue 16, items 3-5). The time must be
 * offered now; its free hosts are tried from the one with the fewest upcoming demos (ties in
 * `DEMO_HOSTS` order). Each try inserts the booking and queues its invitations (and the reminder,
 * when the demo is more than `reminderHours` away, and the `demo.booked` event: announceChange) in
 * one transaction;
 * the partial unique indexes of demo_bookings make a concurrent booking of the same host and start,
 * or a second live booking of the lead, insert nothing, on any number of instances.
 * @throws on database errors (nothing is then booked).
 */
export async function bookDemo(
  db: Db,
  settings: BookingSettings,
  leadId: string,
  start: number,
  now: number = Date.now(),
): Promise<BookingResult> {
  const [lead] = await db
    .select({ verdict: leads.verdict })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead || lead.verdict === 'spam') return { outcome: 'refused' };
  const existing = await liveBooking(db, leadId);
  if (existing) return { outcome: 'already-booked', booking: existing };
  const calendars = await hostCalendars(db, settings, now);
  const slot = computeSlots(settings.rules, calendars, now).find(
    (candidate) => candidate.start === start,
  );
  if (slot) {
    for (const hostEmail of hostsByLoad(slot.hosts, calendars, now)) {
      const booking = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(demoBookings)
          .values({
            id: randomUUID(),
            leadId,
            hostEmail,
            startsAt: new Date(slot.start),
            endsAt: new Date(slot.end),
          })
          .onConflictDoNothing()
          .returning();
        if (inserted)
          await announceChange(tx, { kind: 'booked', booking: inserted }, settings, now);
        return inserted;
      });
      if (booking) return { outcome: 'booked', booking };
      const raced = await liveBooking(db, leadId);
      if (raced) return { outcome: 'already-booked', booking: raced };
    }
  }
  return { outcome: 'slot-gone', slots: await freeSlots(db, settings, now) };
}
