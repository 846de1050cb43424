import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { leads } from '../contact';
import { getDemoEnv, getDemoRuntime, type DemoSiteEnv } from './env';
import { hashClientAddress } from '../../platform/http/client-address';
import { hashClientGroup } from '../../platform/http/client-group';
import { formRateLimit } from '../../platform/http/form-post';
import { log } from '../../platform/log';
import { nudgeQueueWorker } from '../../delivery/queue/runtime';
import { consumeRateLimit } from '../../platform/rate-limit';
import { findBooking } from './bookings';
import { bookDemo } from './commands/book';
import { cancelDemo } from './commands/cancel';
import { confirmHold } from './commands/confirm';
import { correctHeldAddress, resendProofRequest } from './commands/re-request';
import { rescheduleDemo } from './commands/reschedule';
import { bookingSettings, isBookingOn } from './rules';
import { issueBookingToken, verifyBookingToken, verifyConfirmToken } from './tokens';
import type {
  BookingResult,
  BookOutcome,
  ChangeResult,
  ConfirmOutcome,
  ManageOutcome,
} from './types';
import { openManageLink } from './views/manage-page';

/**
 * What the visitor's forms post, as the route actions call it: the booking form's "book this
 * time", the confirmation page's "confirm my demo" and the manage page's reschedule and cancel.
 * Each post counts against the client's booking limit, checks the signed token, runs the command,
 * logs what changed and wakes the queue worker so the e-mails leave at once.
 */

/**
 * Counts one booking post (booking, reschedule or cancel) of `clientAddress` against its own limit,
 * `RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`, kept apart from the form's so that
 * booking does not use up a visitor's enquiries.
 * Returns false past the limit.
 * @throws on database errors.
 */
export async function consumeBookingLimit(
  db: Db,
  env: DemoSiteEnv,
  secret: string,
  clientAddress: string,
): Promise<boolean> {
  const key = `demo:${hashClientAddress(clientAddress, secret)}`;
  return consumeRateLimit(db, key, formRateLimit(env), new Date());
}

/**
 * Books the time `start` (an ISO instant from the form) for the enquiry of `token`;
 * wakes the queue worker so the invitations leave at once. Every post counts against the client's own
 * booking limit (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`, kept apart from the form's):
 * beyond it, `limited`. `gone` when the time is no longer free (the page then shows fresh
 * times), `capped` when the enquiry's e-mail address or the client address (its keyed hash,
 * stored on the booking) already has its upcoming demos (`DEMO_MAX_PER_EMAIL`,
 * `DEMO_MAX_PER_CLIENT`), `invalid` for a bad token, time or an unknown enquiry (bookOutcomeOf).
 * With `DEMO_CONFIRM_EMAIL` the e-mail cap is `held` like any hold (bookDemo); without it both
 * caps are the same `capped`: either way the answer tells nobody whether the address has a demo.
 * @throws on database errors.
 */
export async function bookFromForm(
  token: string,
  start: string,
  clientAddress: string,
): Promise<BookOutcome> {
  const env = getDemoEnv();
  if (!isBookingOn(env)) return 'invalid';
  const { db, secret } = await getDemoRuntime();
  if (!(await consumeBookingLimit(db, env, secret, clientAddress))) return 'limited';
  const leadId = verifyBookingToken(token, secret);
  const at = Date.parse(start);
  if (!leadId || !Number.isFinite(at)) return 'invalid';
  const clientHash = hashClientAddress(clientAddress, secret);
  const settings = { ...bookingSettings(env), secret };
  const group = hashClientGroup(clientAddress, secret);
  const result = await bookDemo(db, settings, leadId, at, Date.now(), clientHash, group);
  if (result.outcome === 'booked' || result.outcome === 'held') {
    log.info({
      event: result.outcome === 'held' && result.cap ? 'demo.capped' : `demo.${result.outcome}`,
      ...(result.outcome === 'held' && result.cap && { cap: result.cap }),
      booking: result.booking.id,
      leadId,
      host: result.booking.hostEmail,
      start: result.booking.startsAt.toISOString(),
    });
    nudgeQueueWorker();
  }
  if (result.outcome === 'capped') log.info({ event: 'demo.capped', cap: result.cap, leadId });
  return bookOutcomeOf(result);
}

/**
 * What the booking page is told of `result`: either cap is the one `capped` (which cap was met
 * stays in the log), a refused enquiry `invalid`, a hold `held`, a taken time `gone`.
 */
export function bookOutcomeOf(result: BookingResult): BookOutcome {
  if (result.outcome === 'capped') return 'capped';
  if (result.outcome === 'refused') return 'invalid';
  if (result.outcome === 'held') return 'held';
  if (result.outcome === 'already-booked' && result.booking.status === 'held') return 'held';
  return result.outcome === 'slot-gone' ? 'gone' : 'booked';
}

/**
 * The held step's two posts (booking page, with or without JavaScript): `resend` has the request
 * to confirm sent again, `correct` replaces a mistyped address with `email` (a new request to the
 * new address, the old one dropped: commands/re-request.ts). Each post counts against the client's
 * booking limit (`limited` beyond it); `invalid` for a bad token or address. Otherwise `sent`
 * whatever happened (sent, past the budget of mails to unproven addresses, quarantined, or no
 * longer held): the page tells nobody which.
 * @throws on database errors.
 */
export async function reRequestFromForm(
  token: string,
  request: { action: 'resend' } | { action: 'correct'; email: string },
  clientAddress: string,
): Promise<'sent' | 'invalid' | 'limited'> {
  const env = getDemoEnv();
  if (!isBookingOn(env) || !env.DEMO_CONFIRM_EMAIL) return 'invalid';
  const { db, secret } = await getDemoRuntime();
  if (!(await consumeBookingLimit(db, env, secret, clientAddress))) return 'limited';
  const leadId = verifyBookingToken(token, secret);
  if (!leadId) return 'invalid';
  const settings = { ...bookingSettings(env), secret };
  const group = hashClientGroup(clientAddress, secret);
  const outcome =
    request.action === 'resend'
      ? await resendProofRequest(db, settings, leadId, Date.now(), group)
      : await correctHeldAddress(db, settings, leadId, request.email, Date.now(), group);
  log.info({ event: `demo.${request.action}`, outcome, leadId });
  if (outcome === 'queued') nudgeQueueWorker();
  return 'sent';
}

/**
 * Confirms the held booking of the confirm token `token` (the confirmation page's post) now, and
 * wakes the queue worker so the invitations leave at once. Every post counts against the client's
 * booking limit (`limited` beyond it). `confirmed` (also when it already was) or `expired` (its
 * hold lapsed and the time is no longer free for it), each with the enquiry's booking token (dated
 * at the enquiry) for the booking page that shows the demo or fresh times; `invalid` for a bad or
 * expired token or an erased booking.
 * @throws on database errors.
 */
export async function confirmFromForm(
  token: string,
  clientAddress: string,
): Promise<{ outcome: ConfirmOutcome; bookingToken?: string }> {
  const env = getDemoEnv();
  if (!isBookingOn(env)) return { outcome: 'invalid' };
  const { db, secret } = await getDemoRuntime();
  if (!(await consumeBookingLimit(db, env, secret, clientAddress))) return { outcome: 'limited' };
  const bookingId = verifyConfirmToken(token, secret);
  const held = bookingId ? await findBooking(db, bookingId) : undefined;
  if (!held) return { outcome: 'invalid' };
  const result = await confirmHold(db, bookingSettings(env), held.id, Date.now());
  if (result.outcome === 'unknown') return { outcome: 'invalid' };
  log.info({ event: `demo.${result.outcome}`, booking: held.id, leadId: held.leadId });
  if (result.outcome === 'confirmed') nudgeQueueWorker();
  const [lead] = await db
    .select({ createdAt: leads.createdAt })
    .from(leads)
    .where(eq(leads.id, held.leadId));
  if (!lead) return { outcome: 'invalid' };
  return {
    outcome: result.outcome === 'expired' ? 'expired' : 'confirmed',
    bookingToken: issueBookingToken(held.leadId, secret, lead.createdAt.getTime()),
  };
}

/**
 * Runs a change posted from the manage page: checks the client's booking limit (every post counts,
 * even one with a bad token, so tokens cannot be guessed at speed), the token, then `change`;
 * logs it and wakes the queue worker when something changed.
 */
async function changeFromForm(
  token: string,
  clientAddress: string,
  change: (
    found: NonNullable<Awaited<ReturnType<typeof openManageLink>>>,
    bookingId: string,
  ) => Promise<ChangeResult | 'invalid'>,
): Promise<ManageOutcome> {
  const found = await openManageLink(token);
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
