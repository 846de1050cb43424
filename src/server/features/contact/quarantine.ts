import 'server-only';
import { funnelSourceOf, recordFunnelEvent } from '../../platform/funnel';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { enqueueDeliveries, type DeliveryTargets } from './deliveries';
import { leads } from './schema';

/**
 * Quarantined enquiries (a bot signal tripped): listed for review, and released to the normal path
 * by an operator (`leads spam`, `leads release`, the console's spam page).
 */

/** A quarantined enquiry as the operator reviews it (the message only when asked). */
export type SpamSummary = {
  reference: string;
  createdAt: Date;
  reason: string | null;
  email: string;
  subject: string;
  message?: string;
};

/**
 * Quarantined enquiries not released, newest first (`leads spam`). The message body is
 * included only with `withMessage`.
 */
export async function listSpam(
  db: Db,
  { withMessage = false, limit = 1_000_000 } = {},
): Promise<SpamSummary[]> {
  const rows = await db
    .select({
      reference: leads.reference,
      createdAt: leads.createdAt,
      reason: leads.spamReason,
      email: leads.email,
      subject: leads.subject,
      message: leads.message,
    })
    .from(leads)
    .where(eq(leads.verdict, 'spam'))
    .orderBy(desc(leads.createdAt))
    .limit(limit);
  return rows.map(({ message, ...row }) => (withMessage ? { ...row, message } : row));
}

/**
 * What else a release sets off, in its transaction, once the enquiry `leadId` left quarantine at
 * `now`: the wiring composes it from the features that kept something waiting (a demo booking).
 */
export type ReleaseHook = (tx: Db, leadId: string, now: Date) => Promise<void>;

/** Where a released enquiry is delivered, and what else its release sets off. */
export type ReleaseTargets = DeliveryTargets & { onReleased?: ReleaseHook };

/** What `releaseSpam` did. */
export type ReleaseResult = 'released' | 'already-released' | 'not-found';

/**
 * Moves the quarantined enquiry `reference` to the normal path in ONE transaction
 * (`leads release`): verdict `lead`, `released_at` set, its deliveries (e-mail and the webhook
 * endpoints of `targets`) queued with `enqueueDeliveries`, and `targets.onReleased` run (a waiting
 * demo booking announced), so the running site's queue worker sends each exactly once. Releasing it
 * again queues nothing (`already-released`), nor does an enquiry that was never spam.
 */
export async function releaseSpam(
  db: Db,
  reference: string,
  targets: ReleaseTargets,
  now = new Date(),
): Promise<ReleaseResult> {
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(leads)
      .set({ verdict: 'lead', releasedAt: now })
      .where(and(eq(leads.reference, reference.trim().toUpperCase()), eq(leads.verdict, 'spam')))
      .returning({
        id: leads.id,
        referrerHost: leads.referrerHost,
        utmSource: leads.utmSource,
        utmMedium: leads.utmMedium,
        utmCampaign: leads.utmCampaign,
      });
    if (!released) {
      const [existing] = await tx
        .select({ id: leads.id })
        .from(leads)
        .where(eq(leads.reference, reference.trim().toUpperCase()));
      return existing ? 'already-released' : 'not-found';
    }
    await enqueueDeliveries(tx, released.id, targets);
    await targets.onReleased?.(tx, released.id, now);
    // A released enquiry joins the funnel now, as a lead stored at once does when it is stored.
    await recordFunnelEvent(tx, {
      step: 'enquiry',
      at: now,
      source: funnelSourceOf(released),
    });
    return 'released';
  });
}
