import 'server-only';
import { eq } from 'drizzle-orm';
import { formatDay, formatTime } from '@/lib/demo/display';
import { offerDays, type BookingOffer } from '@/lib/demo/offer';
import { consumeRateLimit } from '../rate-limit';
import { getSiteSecret } from '../security/site-secret';
import { getDatabase } from '../db';
import type { Db } from '../db';
import { leads } from '../db/schema';
import { getEnv, type Env } from '../env';
import { hashClientAddress } from '../http/client-address';
import { log } from '../log';
import { nudgeQueueWorker } from '../queue/runtime';
import { bookDemo, freeSlots, liveBooking, type DemoBooking } from './booking';
import { bookingSettings, isBookingOn } from './config';
import { issueBookingToken, verifyBookingToken } from './token';

/** Cookie holding the booking token between the booking form and the booking page (path-scoped). */
export const BOOKING_COOKIE = 'nirmaya-demo-booking';

/** A booked demo as its confirmation shows it: when (ISO and in the provider's zone) and with whom. */
export type BookedDemo = {
  start: string;
  day: string;
  time: string;
  hostName: string;
  meetingUrl: string;
};

/** What the booking page shows for a token: the demo booked, the times to pick from, or nothing. */
export type DemoStep =
  { kind: 'booked'; demo: BookedDemo } | { kind: 'offer'; offer: BookingOffer } | { kind: 'none' };

/** A booking as the pages show it: its time in `DEMO_TIMEZONE` and its host from `DEMO_HOSTS`. */
export function bookedDemoOf(booking: DemoBooking, env: Env): BookedDemo {
  const host = env.DEMO_HOSTS.find(
    (candidate) => candidate.email.toLowerCase() === booking.hostEmail.toLowerCase(),
  );
  const at = booking.startsAt.getTime();
  return {
    start: booking.startsAt.toISOString(),
    day: formatDay(at, env.DEMO_TIMEZONE),
    time: formatTime(at, env.DEMO_TIMEZONE),
    hostName: host?.name ?? booking.hostEmail,
    meetingUrl: host?.meetingUrl ?? '',
  };
}

/**
 * Counts one booking post (booking, reschedule or cancel) of `clientAddress` against its own limit,
 * `RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`, kept apart from the form's so that
 * booking does not use up a visitor's enquiries.
 * Returns false past the limit.
 * @throws on database errors.
 */
export async function consumeBookingLimit(
  db: Db,
  env: Env,
  secret: string,
  clientAddress: string,
): Promise<boolean> {
  const limit = { max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000 };
  const key = `demo:${hashClientAddress(clientAddress, secret)}`;
  return consumeRateLimit(db, key, limit, new Date());
}

async function offerFor(
  db: Db,
  env: Env,
  lead: { id: string; demoRequested: boolean },
): Promise<BookingOffer> {
  const secret = await getSiteSecret(db, env.FORM_SECRET);
  return {
    token: issueBookingToken(lead.id, secret),
    demoRequested: lead.demoRequested,
    timeZone: env.DEMO_TIMEZONE,
    days: offerDays(await freeSlots(db, bookingSettings(env)), env.DEMO_TIMEZONE),
  };
}

/**
 * The booking step offered on the confirmation of the accepted enquiry `reference`: null when
 * booking is off, the enquiry is unknown (a bot's pretend reference) or quarantined.
 * @throws on database errors.
 */
export async function bookingOfferFor(reference: string): Promise<BookingOffer | null> {
  const env = getEnv();
  if (!isBookingOn(env)) return null;
  const { db } = await getDatabase();
  const [lead] = await db
    .select({ id: leads.id, verdict: leads.verdict, demoRequested: leads.demoRequested })
    .from(leads)
    .where(eq(leads.reference, reference));
  if (!lead || lead.verdict === 'spam') return null;
  return offerFor(db, env, lead);
}

/**
 * What the booking page shows for the booking token `token`: the enquiry's live demo, else fresh
 * times (with a new token); `none` when booking is off or the token is invalid or expired, or the
 * enquiry is quarantined or gone.
 * @throws on database errors.
 */
export async function demoStep(token: string | undefined): Promise<DemoStep> {
  const env = getEnv();
  if (!isBookingOn(env) || !token) return { kind: 'none' };
  const { db } = await getDatabase();
  const leadId = verifyBookingToken(token, await getSiteSecret(db, env.FORM_SECRET));
  if (!leadId) return { kind: 'none' };
  const booking = await liveBooking(db, leadId);
  if (booking) return { kind: 'booked', demo: bookedDemoOf(booking, env) };
  const [lead] = await db
    .select({ id: leads.id, verdict: leads.verdict, demoRequested: leads.demoRequested })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead || lead.verdict === 'spam') return { kind: 'none' };
  return { kind: 'offer', offer: await offerFor(db, env, lead) };
}

/**
 * Books the time `start` (an ISO instant from the form) for the enquiry of `token`;
 * wakes the outbox so the invitations leave at once. Every post counts against the client's own
 * booking limit (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`, kept apart from the form's):
 * beyond it, `limited`. `gone` when the time is no longer free (the page then shows fresh
 * times), `invalid` for a bad token, time or a refused enquiry.
 * @throws on database errors.
 */
export async function bookFromForm(
  token: string,
  start: string,
  clientAddress: string,
): Promise<'booked' | 'gone' | 'invalid' | 'limited'> {
  const env = getEnv();
  if (!isBookingOn(env)) return 'invalid';
  const { db } = await getDatabase();
  const secret = await getSiteSecret(db, env.FORM_SECRET);
  if (!(await consumeBookingLimit(db, env, secret, clientAddress))) return 'limited';
  const leadId = verifyBookingToken(token, secret);
  const at = Date.parse(start);
  if (!leadId || !Number.isFinite(at)) return 'invalid';
  const result = await bookDemo(db, bookingSettings(env), leadId, at);
  if (result.outcome === 'booked') {
    log.info({
      event: 'demo.booked',
      booking: result.booking.id,
      leadId,
      host: result.booking.hostEmail,
      start: result.booking.startsAt.toISOString(),
    });
    nudgeQueueWorker();
  }
  if (result.outcome === 'refused') return 'invalid';
  return result.outcome === 'slot-gone' ? 'gone' : 'booked';
}
