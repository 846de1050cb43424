import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { leads } from '../contact';
import type { ReleaseTargets } from '../contact';
import { liveBooking } from '../demos';
import type { BookingSettings, OperatorCancel } from '../demos/types';
import { rescheduleDemo } from '../demos';
import { cancelDemoOf } from '../demos';
import { releaseSpam, type ReleaseResult } from '../contact';
import { exportLeadsCsv, type LeadFilter } from './inbox';
import { appendAudit, type Actor } from '../../platform/audit';

/**
 * The operator's acts on enquiries and demos, each written to the audit log as `actor` did it:
 * the console (as the signed-in operator) and the `leads` CLI (as `cli`) both call these, so
 * neither has its own copy of release, export or the audit (retry and acknowledge, which reach
 * every feature's deliveries, are in src/server/wiring/delivery-retry.ts).
 */

/** Releases the quarantined enquiries `references`; returns each one's result. */
export async function releaseEnquiries(
  db: Db,
  actor: Actor,
  references: readonly string[],
  targets: ReleaseTargets,
): Promise<Map<string, ReleaseResult>> {
  const results = new Map<string, ReleaseResult>();
  for (const reference of new Set(references.map((ref) => ref.trim().toUpperCase()))) {
    const result = await db.transaction(async (tx) => {
      const released = await releaseSpam(tx, reference, targets);
      if (released === 'released') await appendAudit(tx, actor, 'release', reference);
      return released;
    });
    results.set(reference, result);
  }
  return results;
}

/** Enquiries as CSV (see exportLeadsCsv), with an audit row saying which. */
export async function exportEnquiries(
  db: Db,
  actor: Actor,
  filter: LeadFilter = {},
  described = 'all',
): Promise<string> {
  return db.transaction(async (tx) => {
    const csv = await exportLeadsCsv(tx, filter);
    await appendAudit(tx, actor, 'export', null, described);
    return csv;
  });
}

/** Cancels the upcoming demo of the enquiry `reference` as the visitor's cancel does. */
export async function cancelDemoAs(
  db: Db,
  actor: Actor,
  settings: BookingSettings,
  reference: string,
  now: number = Date.now(),
): Promise<OperatorCancel> {
  return db.transaction(async (tx) => {
    const result = await cancelDemoOf(tx, settings, reference, now);
    if (result.outcome === 'cancelled')
      await appendAudit(
        tx,
        actor,
        'cancel',
        reference.trim().toUpperCase(),
        result.booking.startsAt.toISOString(),
      );
    return result;
  });
}

/** What `rescheduleDemoAs` did. */
export type OperatorReschedule = 'rescheduled' | 'slot-gone' | 'no-live-demo' | 'not-found';

/**
 * Moves the upcoming demo of the enquiry `reference` to `start` (ms, one of its free times) as
 * the visitor's manage link does: the same invitations, cancellation and event.
 */
export async function rescheduleDemoAs(
  db: Db,
  actor: Actor,
  settings: BookingSettings,
  reference: string,
  start: number,
  now: number = Date.now(),
): Promise<OperatorReschedule> {
  const ref = reference.trim().toUpperCase();
  const [lead] = await db.select({ id: leads.id }).from(leads).where(eq(leads.reference, ref));
  if (!lead) return 'not-found';
  const booking = await liveBooking(db, lead.id);
  if (!booking) return 'no-live-demo';
  const result = await rescheduleDemo(db, settings, booking.id, start, now);
  if (result.outcome === 'not-live') return 'no-live-demo';
  if (result.outcome !== 'rescheduled') return 'slot-gone';
  await appendAudit(
    db,
    actor,
    'reschedule',
    ref,
    `${result.previous.startsAt.toISOString()} → ${result.booking.startsAt.toISOString()}`,
  );
  return 'rescheduled';
}
