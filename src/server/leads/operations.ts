import 'server-only';
import { desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { leads, outbox, rateLimits } from '../db/schema';
import { requeueFailed } from '../outbox/queue';
import { toCsv } from './csv';
import { describeDeliveries, type JobState } from './delivery-summary';

/** One enquiry as the operator sees it, with the state of each of its deliveries. */
export type LeadSummary = {
  reference: string;
  createdAt: Date;
  firstName: string;
  lastName: string;
  email: string;
  organization: string;
  subject: string;
  message: string;
  /** Its jobs (e-mail, one per webhook endpoint), e.g. for describeDeliveries (issue 12). */
  deliveries: JobState[];
};

/**
 * The jobs of the lead in the current row, as a JSON array (`[]` when none). Qualified by hand:
 * drizzle leaves columns unqualified in a single-table select, which the subquery would misread.
 */
const jobStates = sql<JobState[]>`coalesce((
  select json_agg(json_build_object('channel', o.channel, 'status', o.status, 'lastError', o.last_error)
    order by o.channel, o.target)
  from ${outbox} o where o.lead_id = ${leads}.id), '[]'::json)`;

/** Enquiries, newest first (at most `limit`), each with its deliveries. */
export async function listLeads(db: Db, limit = 1_000_000): Promise<LeadSummary[]> {
  return db
    .select({
      reference: leads.reference,
      createdAt: leads.createdAt,
      firstName: leads.firstName,
      lastName: leads.lastName,
      email: leads.email,
      organization: leads.organization,
      subject: leads.subject,
      message: leads.message,
      deliveries: jobStates,
    })
    .from(leads)
    .orderBy(desc(leads.createdAt))
    .limit(limit);
}

const csvColumns = [
  ['reference', 'Reference'],
  ['createdAt', 'Received (UTC)'],
  ['firstName', 'First Name'],
  ['lastName', 'Last Name'],
  ['email', 'Email'],
  ['organization', 'Organization'],
  ['subject', 'Subject'],
  ['message', 'Message'],
] as const;

/** Every enquiry as CSV (header row first), cells neutralised against formula injection. */
export async function exportLeadsCsv(db: Db): Promise<string> {
  const rows = await listLeads(db);
  return toCsv([
    [...csvColumns.map(([, title]) => title), 'Delivery'],
    ...rows.map((row) => [
      ...csvColumns.map(([key]) => {
        const value = row[key];
        return value instanceof Date ? value.toISOString() : value;
      }),
      describeDeliveries(row.deliveries),
    ]),
  ]);
}

/**
 * Erases every enquiry from `email` (compared case-insensitively) and its notification jobs
 * (DPDP Act 2023 right to erasure). Returns how many enquiries and jobs were deleted.
 */
export async function deleteLeadsByEmail(db: Db, email: string): Promise<{ leads: number; jobs: number }> {
  return db.transaction(async (tx) => {
    const ids = (
      await tx
        .select({ id: leads.id })
        .from(leads)
        .where(eq(sql`lower(${leads.email})`, email.trim().toLowerCase()))
    ).map((row) => row.id);
    if (ids.length === 0) return { leads: 0, jobs: 0 };
    const jobs = await tx.delete(outbox).where(inArray(outbox.leadId, ids)).returning({ id: outbox.id });
    const removed = await tx.delete(leads).where(inArray(leads.id, ids)).returning({ id: leads.id });
    return { leads: removed.length, jobs: jobs.length };
  });
}

/** Re-queues failed notifications for immediate delivery; returns how many. */
export const retryFailedNotifications = requeueFailed;

/**
 * Deletes enquiries (and their jobs) older than `retentionDays` and rate-limit counters older than
 * a day. Returns how many enquiries were deleted.
 */
export async function purgeExpired(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const removed = await db.delete(leads).where(lt(leads.createdAt, cutoff)).returning({ id: leads.id });
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  return removed.length;
}
