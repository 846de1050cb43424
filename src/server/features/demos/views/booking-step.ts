import 'server-only';
import { and, eq, gt, sql } from 'drizzle-orm';
import { formatTime } from '@/lib/demo/display';
import { offerDays, type BookingOffer } from '@/lib/demo/offer';
import { leads } from '../../contact';
import { getDemoEnv, getDemoRuntime, type DemoSiteEnv } from '../env';
import type { Runtime } from '../../../platform/runtime';
import { currentBooking, requestedBooking } from '../bookings';
import { bookingSettings, isBookingOn } from '../rules';
import { issueBookingToken, verifyBookingToken } from '../tokens';
import type { BookingSettings, DemoStep } from '../types';
import type { Db } from '../../../platform/db';
import { getEnv } from '../../../platform/env';
import { jobs } from '../../../delivery/queue/schema';
import { isSiteBusy, mailBudgetLimits } from '../../../platform/people/mail-budget';
import { demoMailJob } from '../mails/mail-jobs';
import { bookedDemoOf } from './booked-demo';
import { freeSlots } from './slots';

/**
 * The booking step's data: the times offered on the confirmation of an accepted enquiry, and what
 * the booking page (/contact-us/demo) shows for a booking token.
 */

/** The lead facts an offer needs: its token is dated at the enquiry (`createdAt`), not the visit. */
type OfferLead = { id: string; demoRequested: boolean; createdAt: Date };

async function offerFor(
  { db, env, secret }: Runtime<DemoSiteEnv>,
  lead: OfferLead,
): Promise<BookingOffer> {
  return {
    token: issueBookingToken(lead.id, secret, lead.createdAt.getTime()),
    demoRequested: lead.demoRequested,
    timeZone: env.DEMO_TIMEZONE,
    days: offerDays(await freeSlots(db, bookingSettings(env)), env.DEMO_TIMEZONE),
  };
}

/**
 * The booking step offered on the confirmation of the accepted enquiry `reference`: null when
 * booking is off or the enquiry is unknown (a bot's pretend reference). A quarantined enquiry is
 * offered the same step as a lead (a bot reads no verdict); its booking waits for an operator's
 * release (bookDemo, announceReleased).
 * @throws on database errors.
 */
export async function bookingOfferFor(reference: string): Promise<BookingOffer | null> {
  const env = getDemoEnv();
  if (!isBookingOn(env)) return null;
  const runtime = await getDemoRuntime();
  const { db } = runtime;
  const [lead] = await db
    .select({ id: leads.id, demoRequested: leads.demoRequested, createdAt: leads.createdAt })
    .from(leads)
    .where(eq(leads.reference, reference));
  if (!lead) return null;
  return offerFor(runtime, lead);
}

/**
 * What the booking page shows for the booking token `token` at `now` (ms): the enquiry's live
 * demo, or its hold (`DEMO_CONFIRM_EMAIL`) with the time it lapses, else fresh
 * times (with the same token, dated at the enquiry); never anything about other enquiries of the
 * same address. `none` when booking is off, the token is invalid or expired, or the enquiry is
 * gone. A quarantined enquiry sees what a lead sees.
 * @throws on database errors.
 */
export async function demoStep(
  token: string | undefined,
  now: number = Date.now(),
): Promise<DemoStep> {
  const env = getDemoEnv();
  if (!isBookingOn(env) || !token) return { kind: 'none' };
  const runtime = await getDemoRuntime();
  const { db, secret } = runtime;
  const leadId = verifyBookingToken(token, secret);
  if (!leadId) return { kind: 'none' };
  // A quarantined enquiry's requested time shows as a lead's booking or hold would (a bot reads
  // no verdict).
  const requested = await requestedBooking(db, leadId, now);
  const booking =
    (await currentBooking(db, leadId, now)) ??
    (requested && { ...requested, status: env.DEMO_CONFIRM_EMAIL ? 'held' : 'booked' });
  if (booking?.status === 'held')
    return {
      kind: 'held',
      demo: bookedDemoOf(booking, env, 'unproved'),
      heldUntil: formatTime(booking.heldUntil!.getTime(), env.DEMO_TIMEZONE),
      delayed: await mailDelayedFor(db, leadId, bookingSettings(env), now),
    };
  if (booking) return { kind: 'booked', demo: bookedDemoOf(booking, env, 'unproved') };
  const [lead] = await db
    .select({ id: leads.id, demoRequested: leads.demoRequested, createdAt: leads.createdAt })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead) return { kind: 'none' };
  return { kind: 'offer', offer: await offerFor(runtime, lead) };
}

/**
 * Whether the hold of the enquiry `leadId` has its e-mail to confirm waiting its turn at `now`
 * (ms): the enquiry came without a proof of work and either the site is busy (isSiteBusy, what
 * every such visitor is told alike) or its demo e-mail is queued for later (admitUnprovenMail
 * delayed it).
 */
async function mailDelayedFor(
  db: Db,
  leadId: string,
  settings: BookingSettings,
  now: number,
): Promise<boolean> {
  const [lead] = await db
    .select({ proofOfWork: leads.proofOfWork })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead || lead.proofOfWork) return false;
  const limits = settings.mailBudget ?? mailBudgetLimits(getEnv());
  if (await isSiteBusy(db, new Date(now), limits)) return true;
  const [waiting] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.owner, leadId),
        eq(jobs.kind, demoMailJob.name),
        eq(jobs.status, 'pending'),
        gt(jobs.runAt, new Date(now)),
        sql`${jobs.payload}->>'mail' in ('confirm', 'exists')`,
      ),
    )
    .limit(1);
  return waiting !== undefined;
}
