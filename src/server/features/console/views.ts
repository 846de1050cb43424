import 'server-only';
import { and, asc, count, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import { visitorName } from '@/lib/contact-fields';
import type { Db } from '../../platform/db';
import { demoBookings, type DemoBookingStatus } from '../demos';
import { jobs, type JobStatus } from '../../delivery/queue/schema';
import { leads } from '../contact';
import { appendAudit, type Actor } from '../../platform/audit';

/** One delivery job of an enquiry as its page shows it. */
export type DeliveryRow = {
  kind: string;
  /** Where it goes: the webhook's host, or the mail's kind. */
  target: string;
  status: JobStatus;
  attempts: number;
  /** When a pending job is next tried. */
  runAt: Date;
  lastError: string | null;
  acknowledgedAt: Date | null;
  finishedAt: Date | null;
};

/** Every stored fact of one enquiry, for its page. */
export type EnquiryDetail = typeof leads.$inferSelect & {
  deliveries: DeliveryRow[];
  demos: (typeof demoBookings.$inferSelect)[];
};

/**
 * The target a job's payload names: a webhook's host (never its URL, which may be a capability
 * URL whose path or query is the receiver's secret), or which demo mail; else empty.
 */
function targetOf(payload: unknown): string {
  if (payload && typeof payload === 'object') {
    const { url, mail } = payload as Record<string, unknown>;
    if (typeof url === 'string') return webhookHost(url);
    if (typeof mail === 'string') return mail;
  }
  return '';
}

/** The host (and port) of a webhook URL, or `webhook` when it cannot be read. */
export function webhookHost(url: string): string {
  try {
    return new URL(url).host || 'webhook';
  } catch {
    return 'webhook';
  }
}

/**
 * The enquiry `reference` with its deliveries and demos, or undefined; viewing it is written to
 * the audit log as `actor`'s.
 */
export async function viewEnquiry(
  db: Db,
  actor: Actor,
  reference: string,
): Promise<EnquiryDetail | undefined> {
  const ref = reference.trim().toUpperCase();
  return db.transaction(async (tx) => {
    const [lead] = await tx.select().from(leads).where(eq(leads.reference, ref));
    if (!lead) return undefined;
    const [jobRows, demos] = await Promise.all([
      tx
        .select()
        .from(jobs)
        .where(eq(jobs.owner, lead.id))
        .orderBy(asc(jobs.createdAt), asc(jobs.kind)),
      tx
        .select()
        .from(demoBookings)
        .where(eq(demoBookings.leadId, lead.id))
        .orderBy(desc(demoBookings.createdAt)),
    ]);
    await appendAudit(tx, actor, 'view', ref);
    return detailOf(lead, jobRows, demos);
  });
}

/** An enquiry's page facts from its row, its jobs and its demos. */
function detailOf(
  lead: typeof leads.$inferSelect,
  jobRows: (typeof jobs.$inferSelect)[],
  demos: (typeof demoBookings.$inferSelect)[],
): EnquiryDetail {
  return {
    ...lead,
    deliveries: jobRows.map((job) => ({
      kind: job.kind,
      target: targetOf(job.payload),
      status: job.status,
      attempts: job.attempts,
      runAt: job.runAt,
      lastError: job.lastError,
      acknowledgedAt: job.acknowledgedAt,
      finishedAt: job.finishedAt,
    })),
    demos,
  };
}

/** Quarantined enquiries nobody has released yet (the count on every console page). */
export async function unreviewedSpamCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(leads)
    .where(and(eq(leads.verdict, 'spam'), isNull(leads.releasedAt)));
  return row?.n ?? 0;
}

/** A demo as the Demos page lists it. */
export type DemoRow = {
  reference: string;
  hostEmail: string;
  startsAt: Date;
  status: DemoBookingStatus;
  /** The enquiry is quarantined: the booking waits, unannounced, for its release. */
  waiting: boolean;
  visitor: string;
  organization: string;
};

/**
 * Demos upcoming (soonest first) or past (latest first) at `now`, live, held for the visitor's
 * confirmation, cancelled and expired (a hold past its time shows as `expired`), optionally of one
 * host; a quarantined enquiry's booking is marked `waiting` (announced only once released).
 */
export async function listDemos(
  db: Db,
  {
    when,
    host,
    now = new Date(),
    limit = 200,
  }: { when: 'upcoming' | 'past'; host?: string; now?: Date; limit?: number },
): Promise<DemoRow[]> {
  const rows = await db
    .select({
      reference: leads.reference,
      hostEmail: demoBookings.hostEmail,
      startsAt: demoBookings.startsAt,
      status: demoBookings.status,
      heldUntil: demoBookings.heldUntil,
      firstName: leads.firstName,
      lastName: leads.lastName,
      organization: leads.organization,
      verdict: leads.verdict,
    })
    .from(demoBookings)
    .innerJoin(leads, eq(leads.id, demoBookings.leadId))
    .where(
      and(
        when === 'upcoming' ? gt(demoBookings.startsAt, now) : lte(demoBookings.startsAt, now),
        host ? eq(demoBookings.hostEmail, host) : undefined,
      ),
    )
    .orderBy(when === 'upcoming' ? asc(demoBookings.startsAt) : desc(demoBookings.startsAt))
    .limit(limit);
  return rows.map(({ firstName, lastName, heldUntil, verdict, ...row }) => ({
    ...row,
    waiting: verdict === 'spam',
    status: row.status === 'held' && heldUntil && heldUntil <= now ? 'expired' : row.status,
    visitor: visitorName({ firstName, lastName }).trim(),
  }));
}
