import 'server-only';
import { and, asc, count, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from '../../delivery/queue/schema';
import { enquiriesFrom } from '../contact';
import type { PersonalDataHolder } from '../privacy';
import { liveBooking } from './bookings';
import { cancelDemo } from './commands/cancel';
import { demoMailJob } from './mails/mail-jobs';
import { demoBookings } from './schema';
import type { BookingSettings } from './types';
import { demoWebhookJob } from './webhook-events';

/**
 * The demos' part of a person's data: the bookings of their enquiries. Registered before the
 * contact form's: a live demo is cancelled (METHOD:CANCEL to the host and the visitor, the
 * `demo.cancelled` event) and its cancellations delivered before the enquiry it hangs on is
 * erased, else the host's calendar would keep a demo nobody attends.
 */

/**
 * Cancels the upcoming live demo of each of the enquiries `leadIds` at `now` (ms) exactly as the
 * visitor's cancel does (cancelDemo: `METHOD:CANCEL` to the visitor and the host, the
 * `demo.cancelled` event); returns how many were cancelled.
 * @throws on database errors (the demos cancelled before the error stay cancelled).
 */
async function cancelDemosOf(
  db: Db,
  settings: BookingSettings,
  leadIds: readonly string[],
  now: number = Date.now(),
): Promise<number> {
  let cancelled = 0;
  for (const leadId of leadIds) {
    const booking = await liveBooking(db, leadId);
    if (!booking) continue;
    const result = await cancelDemo(db, settings, booking.id, now);
    if (result.outcome === 'cancelled') cancelled += 1;
  }
  return cancelled;
}

/**
 * How many cancellations of the demos of the enquiries `leadIds` are still to be delivered: their
 * cancellation e-mails and `demo.cancelled` events, queued or being sent (a delivery that failed
 * for good counts as done: the alarm reports it).
 */
async function unsentCancellations(db: Db, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(
        inArray(jobs.owner, [...leadIds]),
        inArray(jobs.status, ['pending', 'sending']),
        or(
          and(
            eq(jobs.kind, demoMailJob.name),
            inArray(sql`${jobs.payload}->>'mail'`, ['visitor-cancel', 'host-cancel']),
          ),
          and(
            eq(jobs.kind, demoWebhookJob.name),
            eq(sql`${jobs.payload}->'event'->>'type'`, 'demo.cancelled'),
          ),
        ),
      ),
    );
  return Number(row?.count ?? 0);
}

/** The ids of the enquiries from `email`: the demos of a person hang on them. */
async function enquiryIds(db: Db, email: string): Promise<string[]> {
  return (await enquiriesFrom(db, email)).map((lead) => lead.id);
}

/** How many demo bookings (live or cancelled) the enquiries `leadIds` have. */
async function demosOf(db: Db, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(demoBookings)
    .where(inArray(demoBookings.leadId, [...leadIds]));
  return row?.n ?? 0;
}

/**
 * The demos' registration (`settings`: the booking settings when booking is on, else no demo is
 * cancelled):
 * - prepare: cancels each live upcoming demo of the person's enquiries as the visitor's cancel does,
 *   then waits until those cancellations are delivered by the queue worker (the running site's):
 *   erasing at once would drop them with the enquiry's jobs;
 * - copy: each booking with its enquiry's reference, and each demo host it was shared with;
 * - erase: the bookings (counted), in the erasure's transaction;
 * - expire: forgets the client hash of demos that are over (it serves only the cap of upcoming
 *   demos per client).
 */
export function demosPersonalData(settings: BookingSettings | undefined): PersonalDataHolder {
  return {
    name: 'demos',
    tables: [demoBookings],
    count: async (db, email) => ({ demos: await demosOf(db, await enquiryIds(db, email)) }),
    copy: async (db, email) => {
      const leads = await enquiriesFrom(db, email);
      const referenceOf = new Map(leads.map((lead) => [lead.id, lead.reference]));
      const demos =
        leads.length === 0
          ? []
          : await db
              .select()
              .from(demoBookings)
              .where(inArray(demoBookings.leadId, [...referenceOf.keys()]))
              .orderBy(asc(demoBookings.startsAt));
      return {
        sections: {
          demos: demos.map((demo) => ({
            reference: referenceOf.get(demo.leadId) ?? '',
            host: demo.hostEmail,
            start: demo.startsAt.toISOString(),
            end: demo.endsAt.toISOString(),
            status: demo.status,
            bookedAt: demo.createdAt.toISOString(),
          })),
        },
        deliveryOwners: [],
        sharedWith: demos.map((demo) => demo.hostEmail),
        counts: { demos: demos.length },
      };
    },
    prepare: async (db, email, { now, waitMs, pollMs }) => {
      const ids = await enquiryIds(db, email);
      const cancelled = settings ? await cancelDemosOf(db, settings, ids, now) : 0;
      const deadline = Date.now() + waitMs;
      let unsent = await unsentCancellations(db, ids);
      while (unsent > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        unsent = await unsentCancellations(db, ids);
      }
      return { cancelled, unsent };
    },
    erase: async (tx, email) => {
      const ids = await enquiryIds(tx, email);
      const removed =
        ids.length === 0
          ? []
          : await tx
              .delete(demoBookings)
              .where(inArray(demoBookings.leadId, ids))
              .returning({ id: demoBookings.id });
      return { counts: { demos: removed.length }, sharedReferences: [] };
    },
    expire: async (db, now) => {
      await db
        .update(demoBookings)
        .set({ clientHash: null })
        .where(and(lt(demoBookings.endsAt, now), isNotNull(demoBookings.clientHash)));
      return {};
    },
  };
}
