import 'server-only';
import { and, asc, eq, gt, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
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
 * it counts (a client address, an e-mail address, a host's day), then counts the live bookings
 * committed before it, then the caller inserts or moves its booking and commits, which releases
 * the lock. Locks are always taken in the order client, e-mail, host's day, so two bookings never
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
 * The upcoming (after `now`, ms) live demos and unlapsed holds of the enquiries of any spelling of
 * the inbox of `email` (compared by canonicalAddress), earliest first.
 */
export async function upcomingOfEmail(db: Db, email: string, now: number): Promise<DemoBooking[]> {
  const rows = await db
    .select({ booking: demoBookings })
    .from(demoBookings)
    .innerJoin(leads, eq(leads.id, demoBookings.leadId))
    .where(upcoming(now, eq(leads.emailCanonical, canonicalAddress(email))))
    .orderBy(asc(demoBookings.startsAt));
  return rows.map((row) => row.booking);
}

/**
 * Which cap a new booking for `visitor` would pass at `now` (ms), holding the locks of its client
 * and e-mail address until the end of `tx`: `email` (with the address's earliest upcoming demo)
 * when the inbox of the e-mail address (any spelling: canonicalAddress) has `caps.perEmail` upcoming demos, `client`
 * when the client hash has `caps.perClient`, else null. Nothing is capped without `caps`; the
 * client is not capped without a hash.
 */
export async function reachedCap(
  tx: Db,
  caps: BookingCaps | undefined,
  visitor: { email: string; clientHash: string | null },
  now: number,
): Promise<{ cap: 'email'; booking: DemoBooking } | { cap: 'client' } | null> {
  if (!caps) return null;
  const email = canonicalAddress(visitor.email);
  if (visitor.clientHash) await lockFor(tx, `client:${visitor.clientHash}`);
  await lockFor(tx, `email:${email}`);
  const sameEmail = await upcomingOfEmail(tx, email, now);
  if (sameEmail.length >= caps.perEmail) return { cap: 'email', booking: sameEmail[0]! };
  if (!visitor.clientHash) return null;
  const [client] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(demoBookings)
    .where(upcoming(now, eq(demoBookings.clientHash, visitor.clientHash)));
  return client!.count >= caps.perClient ? { cap: 'client' } : null;
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
