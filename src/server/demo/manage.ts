import 'server-only';
import { eq } from 'drizzle-orm';
import { offerDays, type BookingOffer } from '@/lib/demo/offer';
import { getSiteSecret } from '../security/site-secret';
import { getDatabase } from '../db';
import { leads } from '../db/schema';
import { getEnv } from '../env';
import { log } from '../log';
import { nudgeQueueWorker } from '../queue/runtime';
import {
  cancelDemo,
  findBooking,
  isChangeable,
  rescheduleDemo,
  rescheduleSlots,
  type ChangeResult,
} from './changes';
import { bookingSettings, isBookingOn } from './config';
import { verifyManageToken } from './manage-token';
import { bookedDemoOf, consumeBookingLimit, type BookedDemo } from './service';

/**
 * What the manage page shows for a token: the live demo with the times it can
 * move to (`offer`, carrying the same token), a cancelled one, one that has started or is over
 * (`past`), or `invalid` (booking off, a bad token, or a booking deleted with its enquiry).
 */
export type ManageView =
  | { kind: 'live'; demo: BookedDemo; reference: string; offer: BookingOffer }
  | { kind: 'cancelled' | 'past'; demo: BookedDemo; reference: string }
  | { kind: 'invalid' };

/** What a reschedule or cancel post did, for the page's notice. */
export type ManageOutcome = 'rescheduled' | 'cancelled' | 'gone' | 'closed' | 'invalid' | 'limited';

/** The booking a manage token names, with the database and environment, or null. */
async function resolve(token: unknown) {
  const env = getEnv();
  if (!isBookingOn(env)) return null;
  const { db } = await getDatabase();
  const secret = await getSiteSecret(db, env.FORM_SECRET);
  const id = verifyManageToken(token, secret);
  const booking = id ? await findBooking(db, id) : undefined;
  return { env, db, secret, booking };
}

/**
 * The manage page for the manage token `token` at `now` (ms).
 * @throws on database errors.
 */
export async function manageView(token: unknown, now: number = Date.now()): Promise<ManageView> {
  const found = await resolve(token);
  if (!found?.booking) return { kind: 'invalid' };
  const { env, db, booking } = found;
  const [lead] = await db
    .select({ reference: leads.reference, demoRequested: leads.demoRequested })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  if (!lead) return { kind: 'invalid' };
  const demo = bookedDemoOf(booking, env);
  if (booking.status === 'cancelled') return { kind: 'cancelled', demo, reference: lead.reference };
  if (!isChangeable(booking, now)) return { kind: 'past', demo, reference: lead.reference };
  const slots = await rescheduleSlots(db, bookingSettings(env), booking, now);
  return {
    kind: 'live',
    demo,
    reference: lead.reference,
    offer: {
      token: String(token),
      demoRequested: lead.demoRequested,
      timeZone: env.DEMO_TIMEZONE,
      days: offerDays(slots, env.DEMO_TIMEZONE),
    },
  };
}

/**
 * Runs a change posted from the manage page: checks the client's booking limit (every post counts,
 * even one with a bad token, so tokens cannot be guessed at speed), the token, then `change`;
 * logs it and wakes the outbox worker when something changed.
 */
async function changeFromForm(
  token: string,
  clientAddress: string,
  change: (
    found: NonNullable<Awaited<ReturnType<typeof resolve>>>,
    bookingId: string,
  ) => Promise<ChangeResult | 'invalid'>,
): Promise<ManageOutcome> {
  const found = await resolve(token);
  if (!found) return 'invalid';
  if (!(await consumeBookingLimit(found.db, found.env, found.secret, clientAddress)))
    return 'limited';
  if (!found.booking) return 'invalid';
  const result = await change(found, found.booking.id);
  if (result === 'invalid') return 'invalid';
  if (result.outcome === 'not-live') return 'closed';
  if (result.outcome === 'slot-gone') return 'gone';
  log.info({
    event: `demo.${result.outcome}`,
    booking: result.booking.id,
    host: result.booking.hostEmail,
    start: result.booking.startsAt.toISOString(),
    sequence: result.booking.sequence,
  });
  nudgeQueueWorker();
  return result.outcome;
}

/**
 * Moves the demo of the manage token `token` to `start` (an ISO instant from the form):
 * `rescheduled`, `gone` when the time was just taken (the demo unchanged), `closed` when
 * it is cancelled or has started, `invalid` for a bad token or time, `limited` past the client's
 * booking limit.
 * @throws on database errors.
 */
export function rescheduleFromForm(
  token: string,
  start: string,
  clientAddress: string,
): Promise<ManageOutcome> {
  return changeFromForm(token, clientAddress, async ({ db, env }, bookingId) => {
    const at = Date.parse(start);
    if (!Number.isFinite(at)) return 'invalid';
    return rescheduleDemo(db, bookingSettings(env), bookingId, at);
  });
}

/**
 * Cancels the demo of the manage token `token`: `cancelled`, `closed` when it
 * was already cancelled or has started, `invalid` for a bad token, `limited` past the client's
 * booking limit.
 * @throws on database errors.
 */
export function cancelFromForm(token: string, clientAddress: string): Promise<ManageOutcome> {
  return changeFromForm(token, clientAddress, ({ db, env }, bookingId) =>
    cancelDemo(db, bookingSettings(env), bookingId),
  );
}
