import 'server-only';
import {
  and,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { containsPattern } from '@/lib/like-pattern';
import { contactFields, contactLabels, type ContactField } from '@/lib/contact-fields';
import type { Db } from '../platform/db';
import { auditLog } from '../platform/audit/schema';
import { demoBookings } from '../features/demos/schema';
import { jobs } from '../delivery/queue/schema';
import { leads } from '../features/contact/schema';
import { privacyRequests } from '../features/privacy/schema';
import { rateLimits } from '../platform/rate-limit/schema';
import { getEnv } from '../platform/env';
import { enqueueDeliveries, type DeliveryTargets } from '../features/contact/deliveries';
import { acknowledgeFailed, dropJobsOf, requeueFailed } from '../delivery/queue/operations';
import { cancelDemosOf, unsentCancellations } from '../features/demos/operator';
import type { BookingSettings } from '../features/demos/types';
import { toCsv } from '../features/contact/csv';
import { describeDeliveries, type JobState } from '../features/contact/delivery-summary';

/**
 * One enquiry as the operator sees it: its reference, time, every contact field (the registry
 * in src/lib/contact-fields.ts), and the state of each of its deliveries.
 */
export type LeadSummary = Record<ContactField, string> & {
  reference: string;
  createdAt: Date;
  /** Its jobs (e-mail, one per webhook endpoint), e.g. for describeDeliveries. */
  deliveries: JobState[];
  /** `spam` for a quarantined enquiry not (yet) released. */
  verdict: 'lead' | 'spam';
};

/** How an enquiry's deliveries stand: all sent, some still to send, or some failed. */
export type DeliveryState = 'delivered' | 'pending' | 'failed';

/** Which enquiries `listLeads`, `countLeads` and `exportLeadsCsv` return. */
export type LeadFilter = {
  /** At most this many (default: all). */
  limit?: number;
  /** Skip this many of the newest first (paging). */
  offset?: number;
  /** Also quarantined enquiries (left out unless asked, so spam never reaches a CRM import). */
  includeSpam?: boolean;
  /** `failed`: a delivery failed; `pending`: none failed, one still to send; `delivered`: all sent. */
  delivery?: DeliveryState;
  /** Only enquiries with (true) or without (false) a booked demo, live or cancelled. */
  hasDemo?: boolean;
  /** Received at or after this instant. */
  from?: Date;
  /** Received before this instant. */
  to?: Date;
  /** The subject's value exactly (the form's choice). */
  subject?: string;
  /** Part of the name, e-mail, organisation or reference (case-insensitive). */
  search?: string;
};

const jobsOfLead = (status: string) =>
  sql`exists (select 1 from ${jobs} j where j.owner = ${leads}.id::text and j.status = ${status})`;
const unsentJobsOfLead = sql`exists (select 1 from ${jobs} j where j.owner = ${leads}.id::text and j.status in ('pending', 'sending'))`;

/** The WHERE clause of `filter` on `leads`. */
function leadConditions(filter: LeadFilter): SQL | undefined {
  const search = filter.search?.trim();
  const pattern = search ? containsPattern(search) : '';
  const demo = sql`exists (select 1 from ${demoBookings} d where d.lead_id = ${leads}.id)`;
  const delivery: Record<DeliveryState, SQL> = {
    failed: jobsOfLead('failed'),
    pending: sql`not ${jobsOfLead('failed')} and ${unsentJobsOfLead}`,
    delivered: sql`not ${jobsOfLead('failed')} and not ${unsentJobsOfLead}`,
  };
  return and(
    filter.includeSpam ? undefined : eq(leads.verdict, 'lead'),
    filter.delivery ? delivery[filter.delivery] : undefined,
    filter.hasDemo === undefined ? undefined : filter.hasDemo ? demo : sql`not ${demo}`,
    filter.from ? gte(leads.createdAt, filter.from) : undefined,
    filter.to ? lt(leads.createdAt, filter.to) : undefined,
    filter.subject ? eq(leads.subject, filter.subject) : undefined,
    search
      ? or(
          ilike(sql`${leads.firstName} || ' ' || ${leads.lastName}`, pattern),
          ilike(leads.email, pattern),
          ilike(leads.organization, pattern),
          ilike(leads.reference, pattern),
        )
      : undefined,
  );
}

/**
 * The jobs of the lead in the current row, as a JSON array (`[]` when none), each kind named by
 * its channel (DeliveryChannel). Qualified by hand: drizzle leaves columns unqualified in a
 * single-table select, which the subquery would misread.
 */
const jobStates = sql<JobState[]>`coalesce((
  select json_agg(json_build_object(
      'channel', case when j.kind like '%.webhook' then 'webhook'
        when j.kind = 'demo.mail' then 'demo' else 'email' end,
      'status', j.status, 'lastError', j.last_error)
    order by j.kind, j.dedupe_key)
  from ${jobs} j where j.owner = ${leads}.id::text), '[]'::json)`;

/** The `leads` column of every contact field, keyed by the field's name. */
const contactColumns = Object.fromEntries(contactFields.map((field) => [field, leads[field]])) as {
  [F in ContactField]: (typeof leads)[F];
};

/**
 * Enquiries matching `filter`, newest first, each with its deliveries; quarantined ones only with
 * `includeSpam`.
 */
export async function listLeads(db: Db, filter: LeadFilter = {}): Promise<LeadSummary[]> {
  const { limit = 1_000_000, offset = 0 } = filter;
  return db
    .select({
      reference: leads.reference,
      createdAt: leads.createdAt,
      ...contactColumns,
      deliveries: jobStates,
      verdict: leads.verdict,
    })
    .from(leads)
    .where(leadConditions(filter))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(limit)
    .offset(offset);
}

/** How many enquiries match `filter` (its limit and offset aside). */
export async function countLeads(db: Db, filter: LeadFilter = {}): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(leads)
    .where(leadConditions(filter));
  return row?.n ?? 0;
}

/** The CSV's columns before `Delivery`: key in LeadSummary and title (the form's label). */
const csvColumns: readonly (readonly ['reference' | 'createdAt' | ContactField, string])[] = [
  ['reference', 'Reference'],
  ['createdAt', 'Received (UTC)'],
  ...contactFields.map((field) => [field, contactLabels[field]] as const),
];

/**
 * Every enquiry matching `filter` (quarantined ones only with `includeSpam`) as CSV, header row
 * first, cells neutralised against formula injection.
 */
export async function exportLeadsCsv(
  db: Db,
  filter: Omit<LeadFilter, 'limit' | 'offset'> = {},
): Promise<string> {
  const { includeSpam = false } = filter;
  const rows = await listLeads(db, { ...filter, limit: undefined, offset: undefined });
  return toCsv([
    // With spam included, a last column says which rows are quarantined.
    [...csvColumns.map(([, title]) => title), 'Delivery', ...(includeSpam ? ['Verdict'] : [])],
    ...rows.map((row) => [
      ...csvColumns.map(([key]) => {
        const value = row[key];
        return value instanceof Date ? value.toISOString() : value;
      }),
      describeDeliveries(row.deliveries),
      ...(includeSpam ? [row.verdict] : []),
    ]),
  ]);
}

/** How deleteLeadsByEmail treats the demos of the enquiries it erases. */
export type EraseOptions = {
  /**
   * The booking settings (with booking on): each live upcoming demo is cancelled with them first,
   * as the visitor's cancel does. Without them no demo is cancelled.
   */
  settings?: BookingSettings;
  /** How long to wait for the cancellations to be delivered (ms, default 60 s). */
  waitMs?: number;
  /** How often to look (ms, default 500). */
  pollMs?: number;
  /** The time of the cancellation (ms; default now). */
  now?: number;
  /**
   * Run in the erasure's transaction with the enquiries about to be erased (none, possibly), before
   * they are: what else the erasure does (the privacy request's events, suppression, tombstone).
   */
  within?: (tx: Db, erasing: readonly ErasedLead[]) => Promise<void>;
  /**
   * Run once the cancellations are delivered, just before the erasure's transaction (e.g. the
   * confirmation e-mail to the person); when it throws, nothing is erased.
   */
  beforeErasing?: () => Promise<void>;
};

/** An enquiry being erased: its id and reference. */
export type ErasedLead = {
  id: string;
  reference: string;
  /** Whether its deliveries were ever queued: a lead, or quarantined spam an operator released. */
  delivered: boolean;
};

/** What deleteLeadsByEmail did. */
export type EraseResult =
  /** The enquiries and their jobs are gone, `cancelled` demos cancelled before. */
  | { outcome: 'erased'; leads: number; jobs: number; cancelled: number }
  /**
   * Nothing erased: `unsent` cancellations (e-mails, events) were not delivered in time; the
   * demos stay cancelled and erasing again, once they have left, completes.
   */
  | { outcome: 'cancellations-unsent'; cancelled: number; unsent: number };

/**
 * Erases every enquiry from `email` (compared case-insensitively) and its notification jobs
 * (DPDP Act 2023 right to erasure). An enquiry with a live demo has it cancelled first
 * (`options.settings`; cancelDemosOf: `METHOD:CANCEL` to the host and the visitor, the
 * `demo.cancelled` event), and the erasure waits up to `options.waitMs` until those cancellations
 * have been delivered by the queue worker (the running site's): erasing at once would drop them
 * with the enquiry's jobs, and the host's calendar would keep a demo nobody attends.
 * @throws on database errors.
 */
export async function deleteLeadsByEmail(
  db: Db,
  email: string,
  {
    settings,
    waitMs = 60_000,
    pollMs = 500,
    now = Date.now(),
    within,
    beforeErasing,
  }: EraseOptions = {},
): Promise<EraseResult> {
  const ids = (await leadsFrom(db, email)).map((lead) => lead.id);
  const cancelled = settings ? await cancelDemosOf(db, settings, ids, now) : 0;
  const deadline = Date.now() + waitMs;
  let unsent = await unsentCancellations(db, ids);
  while (unsent > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    unsent = await unsentCancellations(db, ids);
  }
  if (unsent > 0) return { outcome: 'cancellations-unsent', cancelled, unsent };
  await beforeErasing?.();
  return db.transaction(async (tx) => {
    const erasing = await leadsFrom(tx, email);
    await within?.(tx, erasing);
    const erasingIds = erasing.map((lead) => lead.id);
    if (erasingIds.length === 0) return { outcome: 'erased', leads: 0, jobs: 0, cancelled };
    const dropped = await dropJobsOf(tx, erasingIds);
    const removed = await tx
      .delete(leads)
      .where(inArray(leads.id, erasingIds))
      .returning({ id: leads.id });
    return { outcome: 'erased', leads: removed.length, jobs: dropped, cancelled };
  });
}

/** The enquiries from `email` (compared case-insensitively, trimmed): id, reference, delivered. */
export async function leadsFrom(db: Db, email: string): Promise<ErasedLead[]> {
  return db
    .select({
      id: leads.id,
      reference: leads.reference,
      delivered: sql<boolean>`(${leads.verdict} = 'lead' OR ${leads.releasedAt} IS NOT NULL)`,
    })
    .from(leads)
    .where(eq(sql`lower(${leads.email})`, email.trim().toLowerCase()));
}

/** The id of the enquiry `reference` (any case), or undefined when there is none. */
/**
 * The owner of the deliveries quoted by `reference`: an enquiry (`NH-…`) or a privacy request
 * (`PR-…`, its link, acknowledgement, reply and `lead.erased` jobs); undefined when neither exists.
 */
async function deliveryOwnerOf(db: Db, reference: string): Promise<string | undefined> {
  const wanted = reference.trim().toUpperCase();
  const [lead] = await db.select({ id: leads.id }).from(leads).where(eq(leads.reference, wanted));
  if (lead) return lead.id;
  const [request] = await db
    .select({ id: privacyRequests.id })
    .from(privacyRequests)
    .where(eq(privacyRequests.reference, wanted));
  return request?.id;
}

/**
 * Re-queues failed deliveries for immediate delivery: every one, or those of the enquiry or
 * privacy request `reference`. Returns how many, or null when nothing has that reference.
 */
export async function retryFailedNotifications(db: Db, reference?: string): Promise<number | null> {
  if (reference === undefined) return requeueFailed(db);
  const id = await deliveryOwnerOf(db, reference);
  return id ? requeueFailed(db, { owners: [id] }) : null;
}

/**
 * Acknowledges the failed deliveries of the enquiry or privacy request `reference` (an operator
 * has seen them: they stop ringing the delivery alarm, and stay listed as failed). Returns how
 * many were newly acknowledged, or null when nothing has that reference.
 */
export async function acknowledgeFailedNotifications(
  db: Db,
  reference: string,
): Promise<number | null> {
  const id = await deliveryOwnerOf(db, reference);
  return id ? acknowledgeFailed(db, { owners: [id] }) : null;
}

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

/** What `releaseSpam` did. */
export type ReleaseResult = 'released' | 'already-released' | 'not-found';

/**
 * Moves the quarantined enquiry `reference` to the normal path in ONE transaction
 * (`leads release`): verdict `lead`, `released_at` set, its deliveries (e-mail and the webhook
 * endpoints of `targets`) queued with `enqueueDeliveries`, so the running site's queue worker
 * sends each exactly once. Releasing it
 * again queues nothing (`already-released`), nor does an enquiry that was never spam.
 */
export async function releaseSpam(
  db: Db,
  reference: string,
  targets: DeliveryTargets,
  now = new Date(),
): Promise<ReleaseResult> {
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(leads)
      .set({ verdict: 'lead', releasedAt: now })
      .where(and(eq(leads.reference, reference.trim().toUpperCase()), eq(leads.verdict, 'spam')))
      .returning({ id: leads.id });
    if (!released) {
      const [existing] = await tx
        .select({ id: leads.id })
        .from(leads)
        .where(eq(leads.reference, reference.trim().toUpperCase()));
      return existing ? 'already-released' : 'not-found';
    }
    await enqueueDeliveries(tx, released.id, targets);
    return 'released';
  });
}

/**
 * How long the tombstone of an answered privacy request is kept, in days (3 years): long enough to
 * prove a request was honoured, stated in the privacy policy.
 */
export const PRIVACY_TOMBSTONE_DAYS = 3 * 365;

/** How long each kind of enquiry is kept, in days. */
export type Retention = { leadsDays: number; spamDays: number };

/**
 * Deletes enquiries (and their jobs) past their retention: leads (and released spam) after
 * `retention.leadsDays` (LEADS_RETENTION_DAYS), quarantined spam never released after
 * `retention.spamDays` (SPAM_RETENTION_DAYS); `retention` may be just the leads' days,
 * the spam's then coming from the environment. Also drops rate-limit counters older than a day,
 * the client hash of demos that are over,
 * audit rows older than the leads' retention and privacy-request tombstones closed more than
 * PRIVACY_TOMBSTONE_DAYS ago. Returns how many enquiries were deleted.
 */
export async function purgeExpired(
  db: Db,
  retention: number | Retention,
  now = new Date(),
): Promise<number> {
  const { leadsDays, spamDays } =
    typeof retention === 'number'
      ? { leadsDays: retention, spamDays: getEnv().SPAM_RETENTION_DAYS }
      : retention;
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const removed = await db.transaction(async (tx) => {
    const expired = await tx
      .select({ id: leads.id })
      .from(leads)
      .where(
        or(
          lt(leads.createdAt, cutoff(leadsDays)),
          and(
            eq(leads.verdict, 'spam'),
            isNull(leads.releasedAt),
            lt(leads.createdAt, cutoff(spamDays)),
          ),
        ),
      );
    const ids = expired.map((row) => row.id);
    await dropJobsOf(tx, ids);
    return ids.length === 0
      ? []
      : tx.delete(leads).where(inArray(leads.id, ids)).returning({ id: leads.id });
  });
  await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  // The client hash of a booking serves only the cap of upcoming demos per client: forgotten once
  // the demo is over.
  await db
    .update(demoBookings)
    .set({ clientHash: null })
    .where(and(lt(demoBookings.endsAt, now), isNotNull(demoBookings.clientHash)));
  // The audit log is kept as long as enquiries.
  await db.delete(auditLog).where(lt(auditLog.at, cutoff(leadsDays)));
  await db
    .delete(privacyRequests)
    .where(
      and(
        eq(privacyRequests.status, 'closed'),
        lt(privacyRequests.closedAt, cutoff(PRIVACY_TOMBSTONE_DAYS)),
      ),
    );
  return removed.length;
}
