import 'server-only';
import { and, asc, eq, gt, gte, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { localDate, type DemoRules } from '@/lib/demo/slots';
import type { Db } from '../../platform/db';
import { demoBookings } from './schema';
import { leads } from '../contact';
import { liveAt } from './holds';
import { canonicalAddress } from '../../platform/people/canonical-address';
import type { BookingCaps, DemoBooking } from './types';

/**
 * The limits a booking checks inside its own transaction, so that concurrent bookings on any
 * number of instances cannot race past them: each takes a transaction-scoped advisory lock on what
 * it counts (a client address, its group, an e-mail address, a host's day), then counts the live bookings
 * committed before it, then the caller inserts or moves its booking and commits, which releases
 * the lock. Locks are always taken in the order client, client group, e-mail, host's day, so two bookings never
 * wait for each other crosswise. Works the same on PostgreSQL and PGlite.
 */

/** The advisory lock class of demo booking (`'ND'`), apart from the other locks of the site. */
const DEMO_LOCK_CLASS = 0x4e44;
const day = 24 * 60 * 60_000;

/** Waits for, then holds until the end of `tx`, the demo lock named `key`. */
async function lockFor(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${DEMO_LOCK_CLASS}, hashtext(${key}))`);
}

/**
 * Bookings live at `now` (ms; unlapsed holds included) that start after it and match `where`.
 */
function upcoming(now: number, where: SQL) {
  return and(liveAt(now), gt(demoBookings.startsAt, new Date(now)), where);
}

/**
 * The upcoming (after `now`, ms) confirmed demos of the enquiries of any spelling of the inbox of
 * `email` (compared by canonicalAddress), and the unlapsed hold of the enquiry `leadId` when
 * given, earliest first. Other enquiries' holds are not counted: anyone can type anyone's address,
 * and only its owner confirms.
 */
export async function upcomingOfEmail(
  db: Db,
  email: string,
  now: number,
  leadId?: string,
): Promise<DemoBooking[]> {
  const confirmedOrOwn = or(
    eq(demoBookings.status, 'booked'),
    leadId ? eq(demoBookings.leadId, leadId) : undefined,
  )!;
  const rows = await db
    .select({ booking: demoBookings })
    .from(demoBookings)
    .innerJoin(leads, eq(leads.id, demoBookings.leadId))
    .where(upcoming(now, and(eq(leads.emailCanonical, canonicalAddress(email)), confirmedOrOwn)!))
    .orderBy(asc(demoBookings.startsAt));
  return rows.map((row) => row.booking);
}

/** Who books: the enquiry's address and id, the client's keyed hash and its group's (or null). */
export type BookingVisitor = {
  email: string;
  leadId?: string;
  clientHash: string | null;
  clientGroup?: string | null;
};

/**
 * Which cap a new booking for `visitor` would pass at `now` (ms), holding the locks of its client,
 * client group and e-mail address until the end of `tx`: `email` (with the address's earliest
 * upcoming demo) when the inbox of the e-mail address (any spelling: canonicalAddress) has
 * `caps.perEmail` upcoming confirmed demos, counting besides them only the visitor's own
 * enquiry's hold (upcomingOfEmail); `client` when the client hash has `caps.perClient` upcoming
 * demos and holds, or its group `caps.holdsPerGroup` unlapsed holds; else null. Nothing is capped
 * without `caps`; the client is not capped without a hash, nor the group without one.
 */
export async function reachedCap(
  tx: Db,
  caps: BookingCaps | undefined,
  visitor: BookingVisitor,
  now: number,
): Promise<{ cap: 'email'; booking: DemoBooking } | { cap: 'client' } | null> {
  if (!caps) return null;
  const email = canonicalAddress(visitor.email);
  if (visitor.clientHash) await lockFor(tx, `client:${visitor.clientHash}`);
  if (visitor.clientGroup) await lockFor(tx, `group:${visitor.clientGroup}`);
  await lockFor(tx, `email:${email}`);
  const sameEmail = await upcomingOfEmail(tx, email, now, visitor.leadId);
  if (sameEmail.length >= caps.perEmail) return { cap: 'email', booking: sameEmail[0]! };
  if (visitor.clientHash) {
    const [client] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(demoBookings)
      .where(upcoming(now, eq(demoBookings.clientHash, visitor.clientHash)));
    if (client!.count >= caps.perClient) return { cap: 'client' };
  }
  if (visitor.clientGroup && caps.holdsPerGroup !== undefined) {
    const [group] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(demoBookings)
      .where(
        and(
          eq(demoBookings.status, 'held'),
          gt(demoBookings.heldUntil, new Date(now)),
          eq(demoBookings.clientGroup, visitor.clientGroup),
        ),
      );
    if (group!.count >= caps.holdsPerGroup) return { cap: 'client' };
  }
  return null;
}

/**
 * Whether `hostEmail` can take one more demo on the local day (`rules.timeZone`) of `start` (ms)
 * under `rules.maxPerDay`, counting the demos and holds live at `now` (ms), holding that host's
 * day lock until the end of `tx`; the booking `movingId` (a reschedule's or a late confirmation's
 * own) does not count.
 */
export async function hasRoomOnDay(
  tx: Db,
  rules: Pick<DemoRules, 'timeZone' | 'maxPerDay'>,
  hostEmail: string,
  start: number,
  now: number,
  movingId?: string,
): Promise<boolean> {
  const date = localDate(start, rules.timeZone);
  await lockFor(tx, `day:${hostEmail.toLowerCase()}:${date}`);
  const rows = await tx
    .select({ startsAt: demoBookings.startsAt })
    .from(demoBookings)
    .where(
      and(
        liveAt(now),
        sql`lower(${demoBookings.hostEmail}) = ${hostEmail.toLowerCase()}`,
        gte(demoBookings.startsAt, new Date(start - day)),
        lt(demoBookings.startsAt, new Date(start + day)),
        movingId ? ne(demoBookings.id, movingId) : undefined,
      ),
    );
  const sameDay = rows.filter((row) => localDate(row.startsAt.getTime(), rules.timeZone) === date);
  return sameDay.length < rules.maxPerDay;
}
