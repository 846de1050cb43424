import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { addressKeys } from '../../../platform/people/address-hash';
import { getSiteSecret } from '../../../platform/security/site-secret';
import { correctEnquiryAddress, leads } from '../../contact';
import { currentBooking } from '../bookings';
import { upcomingOfEmail } from '../limits';
import { enqueueProofRequest } from '../mails/proof-request';
import { demoBookings } from '../schema';
import type { BookingSettings, DemoBooking } from '../types';

/**
 * What the visitor can do while their booking waits for its confirmation (the booking page's
 * held step): have the request to confirm sent again, or correct a mistyped address. Both act only
 * on the enquiry's unlapsed hold, count against the budget of mails to unproven addresses
 * (enqueueProofRequest) and send nothing for a quarantined enquiry (its booking waits for an
 * operator's release, announceReleased); the visitor sees the same page whatever happened.
 */

/** What a resend or correction did (for the log; the page says the same for every outcome). */
export type ReRequestOutcome = 'queued' | 'not-sent' | 'not-held';

/** `queued` when the budget let the request be queued (now or delayed), else `not-sent`. */
function queuedOrNot(verdict: string): ReRequestOutcome {
  return verdict === 'send' || verdict === 'delay' ? 'queued' : 'not-sent';
}

/** The lead's unlapsed hold at `now` (ms) with its enquiry's verdict and address, if any. */
async function heldOf(db: Db, leadId: string, now: number) {
  const booking = await currentBooking(db, leadId, now);
  if (booking?.status !== 'held') return undefined;
  const [lead] = await db
    .select({ verdict: leads.verdict, email: leads.email })
    .from(leads)
    .where(eq(leads.id, leadId));
  return lead && { booking, lead };
}

/**
 * The notice that the address already has a demo, when `email` has reached its cap of upcoming
 * demos (`caps.perEmail`) besides the hold `keep`; else undefined (the request to confirm).
 */
async function existingOf(
  tx: Db,
  settings: BookingSettings,
  email: string,
  keep: string,
  now: number,
): Promise<DemoBooking | undefined> {
  const others = (await upcomingOfEmail(tx, email, now)).filter((other) => other.id !== keep);
  return others.length >= (settings.caps?.perEmail ?? Infinity) ? others[0] : undefined;
}

/**
 * Sends the request to confirm the hold of the enquiry `leadId` again at `now` (ms): a new link
 * (the earlier ones keep working within the hold), or the "already exists" notice when the address
 * has its demo. `queued`, `not-sent` (past the budget, or quarantined) or `not-held`.
 * @throws on database errors.
 */
export async function resendProofRequest(
  db: Db,
  settings: BookingSettings,
  leadId: string,
  now: number,
  clientGroup: string | null = null,
): Promise<ReRequestOutcome> {
  const found = await heldOf(db, leadId, now);
  if (!found) return 'not-held';
  if (found.lead.verdict === 'spam') return 'not-sent';
  const verdict = await db.transaction(async (tx) =>
    enqueueProofRequest(
      tx,
      found.booking,
      settings,
      now,
      await existingOf(tx, settings, found.lead.email, found.booking.id, now),
      clientGroup,
    ),
  );
  return queuedOrNot(verdict);
}

/**
 * Corrects the address of the enquiry `leadId`, whose hold waits for its confirmation, to `email`
 * (validated by the caller) at `now` (ms), in one transaction: the enquiry's address is replaced,
 * the hold is cancelled (so the links sent to the old address confirm nothing) and a new hold of
 * the same host, time and end of hold takes its place, whose request to confirm goes to the new
 * address (proof is asked again). `queued`, `not-sent` (past the budget, or quarantined: the new
 * hold then waits as the old one did) or `not-held`.
 * @throws on database errors.
 */
export async function correctHeldAddress(
  db: Db,
  settings: BookingSettings,
  leadId: string,
  email: string,
  now: number,
  clientGroup: string | null = null,
): Promise<ReRequestOutcome> {
  const found = await heldOf(db, leadId, now);
  if (!found) return 'not-held';
  const { booking } = found;
  return db.transaction(async (tx) => {
    const [dropped] = await tx
      .update(demoBookings)
      .set({ status: 'cancelled', heldUntil: null, updatedAt: sql`now()` })
      .where(sql`${demoBookings.id} = ${booking.id} and ${demoBookings.status} = 'held'`)
      .returning({ id: demoBookings.id });
    const keys = addressKeys(email, settings.secret ?? (await getSiteSecret(tx)));
    if (
      !dropped ||
      !(await correctEnquiryAddress(tx, leadId, email, keys, new Date(now), settings.webhookUrls))
    )
      return 'not-held';
    const [renewed] = await tx
      .insert(demoBookings)
      .values({
        id: randomUUID(),
        leadId,
        hostEmail: booking.hostEmail,
        startsAt: booking.startsAt,
        endsAt: booking.endsAt,
        clientHash: booking.clientHash,
        status: 'held',
        heldUntil: booking.heldUntil,
      })
      .returning();
    if (found.lead.verdict === 'spam') return 'not-sent';
    const exists = await existingOf(tx, settings, email, renewed!.id, now);
    const verdict = await enqueueProofRequest(tx, renewed!, settings, now, exists, clientGroup);
    return queuedOrNot(verdict);
  });
}
