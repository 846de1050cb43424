import 'server-only';
import { funnelSourceOf, recordFunnelEvent } from '../../platform/funnel';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ContactInput } from '@/lib/contact-schema';
import type { EnquiryContext } from '@/lib/enquiry-context';
import type { Db } from '../../platform/db';
import { leads } from './schema';
import { enqueueDeliveries, type DeliveryTargets } from './deliveries';
import { consumeRateLimit, countInWindow, type RateLimit } from '../../platform/rate-limit';
import { newReference } from '../../platform/reference';
import { isSuppressed } from '../../platform/people/suppression';
import type { AddressKeys } from '../../platform/people/address-hash';

/**
 * What storing an enquiry did: stored now (as a lead, or quarantined as spam), already stored
 * (same form posted twice), refused by the client's rate limit, or, for spam past the hourly
 * ceiling, not stored (`overflow` = how many past the ceiling this hour, this one included).
 */
export type StoreResult =
  | { outcome: 'stored' | 'quarantined' | 'duplicate'; leadId: string; reference: string }
  | { outcome: 'rate-limited' }
  | { outcome: 'dropped'; overflow: number };

/** Key of the global hourly counter of quarantined enquiries in `rate_limits`. */
const QUARANTINE_COUNTER = 'quarantine:all';
const HOUR_MS = 3_600_000;
/**
 * First key of the transaction-level advisory lock taken per form (the second is a hash of the
 * form's nonce). Locks on two 32-bit keys never conflict with the migrations' 64-bit one.
 */
const SUBMISSION_LOCK_CLASS = 0x4e48; // 'NH'

class RateLimited extends Error {}

/** How a submission that tripped a bot signal is quarantined (kept for review, not delivered). */
export type Quarantine = {
  /** The bot signal (`honeypot`, `missing`, `tampered`, `too-fast`, `altcha-invalid`, …). */
  reason: string;
  /** At most this many quarantined enquiries are stored per hour, across all clients. */
  maxPerHour: number;
};

/**
 * Stores an enquiry (with where it came from) in ONE transaction with the client's rate-limit
 * count. A lead gets its deliveries (e-mail, one job per webhook endpoint of `meta.deliveries`)
 * queued in the same transaction (the transactional outbox): once this resolves, they will be sent
 * even if the process dies. With `quarantine`, the enquiry is stored with verdict `spam` and its
 * reason and nothing is queued. An enquiry from a suppressed address (its owner erased their data
 * or withdrew consent) is stored and delivered like any other, marked `suppressed`; it never lifts
 * the suppression (only its owner does, at /privacy-requests). Quarantined enquiries count toward
 * the client's rate limit, and past `quarantine.maxPerHour` in the current hour they are not stored (the counters
 * still are). The same `submissionId` (the form token's nonce) stored twice, one after the other
 * or at the same time on several instances (the edge re-sends a post an instance dropped), yields
 * the first enquiry, no second job and no second rate-limit count.
 * @throws on database errors (nothing is then stored).
 */
export async function storeEnquiry(
  db: Db,
  enquiry: ContactInput & EnquiryContext & { noticeVersion: string; proofOfWork?: boolean },
  meta: {
    submissionId: string;
    /** Keyed hash of the client address: the rate-limit key only, never stored on the enquiry. */
    clientHash: string;
    /** Keyed hashes of the e-mail address (addressKeys): mark the enquiry when suppressed. */
    emailKeys: AddressKeys;
    rateLimit: RateLimit;
    now: Date;
    deliveries: DeliveryTargets;
    quarantine?: Quarantine;
  },
): Promise<StoreResult> {
  try {
    return await db.transaction(async (tx): Promise<StoreResult> => {
      // Posts of one form wait here for each other, so the later one finds the earlier one's
      // enquiry below (each statement sees what committed before it) instead of counting against
      // the client's rate limit, which could refuse it although its enquiry was stored.
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${SUBMISSION_LOCK_CLASS}, hashtext(${meta.submissionId}))`,
      );
      const existing = await findBySubmission(tx, meta.submissionId);
      if (existing) return { outcome: 'duplicate', ...existing };
      if (!(await consumeRateLimit(tx, meta.clientHash, meta.rateLimit, meta.now)))
        throw new RateLimited();
      const { quarantine } = meta;
      if (quarantine) {
        const limit = { max: quarantine.maxPerHour, windowMs: HOUR_MS };
        const stored = await countInWindow(tx, QUARANTINE_COUNTER, limit, meta.now);
        if (stored > limit.max) return { outcome: 'dropped', overflow: stored - limit.max };
      }
      const leadId = randomUUID();
      const [inserted] = await tx
        .insert(leads)
        .values({
          id: leadId,
          reference: newReference(),
          submissionId: meta.submissionId,
          ...enquiry,
          suppressed: await isSuppressed(tx, meta.emailKeys),
          ...(quarantine ? { verdict: 'spam' as const, spamReason: quarantine.reason } : {}),
        })
        .onConflictDoNothing({ target: leads.submissionId })
        .returning({ leadId: leads.id, reference: leads.reference });
      if (!inserted) {
        // Another post of the same form stored it first: the lock above makes this rare, the
        // unique submission_id is what guarantees one row. Report its enquiry.
        const winner = await findBySubmission(tx, meta.submissionId);
        if (!winner) throw new Error('Enquiry vanished after a conflicting insert.');
        return { outcome: 'duplicate', ...winner };
      }
      if (quarantine) return { outcome: 'quarantined', ...inserted };
      await enqueueDeliveries(tx, leadId, meta.deliveries);
      await recordFunnelEvent(tx, {
        step: 'enquiry',
        at: meta.now,
        source: funnelSourceOf(enquiry),
      });
      return { outcome: 'stored', ...inserted };
    });
  } catch (error) {
    if (error instanceof RateLimited) return { outcome: 'rate-limited' };
    throw error;
  }
}

async function findBySubmission(db: Db, submissionId: string) {
  const [row] = await db
    .select({ leadId: leads.id, reference: leads.reference })
    .from(leads)
    .where(eq(leads.submissionId, submissionId));
  return row;
}
