import 'server-only';
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { containsPattern } from '@/lib/like-pattern';
import { contactFields, contactLabels, type ContactField } from '@/lib/contact-fields';
import type { Db } from '../../platform/db';
import { jobs } from '../../delivery/queue/schema';
import { visitSourceFields, visitSourceLabels, type VisitSource } from '@/lib/visit-source';
import { leads, visitSourceColumns } from './schema';
import { toCsv } from './csv';
import { describeDeliveries, type JobState } from './delivery-summary';

/**
 * The stored enquiries as an operator reads them (the console's inbox, `leads list` and
 * `leads export`): filtered, paged, counted, and as CSV.
 */

/**
 * One enquiry as the operator sees it: its reference, time, every contact field (the registry
 * in src/lib/contact-fields.ts), and the state of each of its deliveries.
 */
export type LeadSummary = Record<ContactField, string> &
  VisitSource & {
    reference: string;
    createdAt: Date;
    /** Its jobs (e-mail, one per webhook endpoint), e.g. for describeDeliveries. */
    deliveries: JobState[];
    /** `spam` for a quarantined enquiry not (yet) released. */
    verdict: 'lead' | 'spam';
    /** The address was suppressed when the enquiry came: the site sends it nothing. */
    suppressed: boolean;
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
  /**
   * Only enquiries for which this condition on `leads` holds: a filter on another feature's rows
   * (e.g. whether a demo was booked), built by that feature.
   */
  related?: SQL;
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
  const delivery: Record<DeliveryState, SQL> = {
    failed: jobsOfLead('failed'),
    pending: sql`not ${jobsOfLead('failed')} and ${unsentJobsOfLead}`,
    delivered: sql`not ${jobsOfLead('failed')} and not ${unsentJobsOfLead}`,
  };
  return and(
    filter.includeSpam ? undefined : eq(leads.verdict, 'lead'),
    filter.delivery ? delivery[filter.delivery] : undefined,
    filter.related,
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
      ...visitSourceColumns,
      deliveries: jobStates,
      verdict: leads.verdict,
      suppressed: leads.suppressed,
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

/** The CSV's columns before `Suppressed` and `Delivery`: key in LeadSummary and title. */
const csvColumns: readonly (readonly [
  'reference' | 'createdAt' | ContactField | keyof VisitSource,
  string,
])[] = [
  ['reference', 'Reference'],
  ['createdAt', 'Received (UTC)'],
  ...contactFields.map((field) => [field, contactLabels[field]] as const),
  ...visitSourceFields.map((field) => [field, visitSourceLabels[field]] as const),
];

/**
 * Every enquiry matching `filter` (quarantined ones only with `includeSpam`) as CSV, header row
 * first, cells neutralised against formula injection; `Suppressed` says `yes` for an enquiry
 * from a suppressed address (do not write to it), else `no`.
 */
export async function exportLeadsCsv(
  db: Db,
  filter: Omit<LeadFilter, 'limit' | 'offset'> = {},
): Promise<string> {
  const { includeSpam = false } = filter;
  const rows = await listLeads(db, { ...filter, limit: undefined, offset: undefined });
  return toCsv([
    // With spam included, a last column says which rows are quarantined.
    [
      ...csvColumns.map(([, title]) => title),
      'Suppressed',
      'Delivery',
      ...(includeSpam ? ['Verdict'] : []),
    ],
    ...rows.map((row) => [
      ...csvColumns.map(([key]) => {
        const value = row[key];
        return value instanceof Date ? value.toISOString() : (value ?? '');
      }),
      row.suppressed ? 'yes' : 'no',
      describeDeliveries(row.deliveries),
      ...(includeSpam ? [row.verdict] : []),
    ]),
  ]);
}
