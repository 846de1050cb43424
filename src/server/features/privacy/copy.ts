import 'server-only';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { demoBookings } from '../demos/schema';
import { jobs } from '../../delivery/queue/schema';
import { leads } from '../contact/schema';
import { leadsFrom } from '../../wiring/lead-operations';
import { contactValuesOf, type ContactValues } from '@/lib/contact-fields';

/**
 * Everything the site holds for one address (DPDP Act s.11: a summary of the personal data
 * processed and the identities of those it was shared with): its enquiries with their fields,
 * its demo bookings, the deliveries of both (queued jobs: kind, state, times) and where they went.
 */
export type PersonData = {
  /** Each enquiry: its reference and time, every contact field (src/lib/contact-fields.ts), the rest. */
  enquiries: ({ reference: string; receivedAt: string } & ContactValues & {
      sourcePage: string | null;
      demoRequested: boolean;
      noticeVersion: string | null;
      verdict: string;
    })[];
  demos: {
    reference: string;
    host: string;
    start: string;
    end: string;
    status: string;
    bookedAt: string;
  }[];
  deliveries: {
    reference: string;
    kind: string;
    status: string;
    queuedAt: string;
    finishedAt: string | null;
  }[];
  /** The recipients it was shared with: `LEADS_TO`, each `WEBHOOK_URLS` host, the demo hosts. */
  sharedWith: string[];
};

/** Where the site delivers enquiries: `LEADS_TO` and `WEBHOOK_URLS`. */
export type Destinations = { leadsTo?: string; webhookUrls: readonly string[] };

/**
 * Collects PersonData for `email` (compared case-insensitively): every enquiry (quarantined ones
 * too), its demos and jobs, and the destinations: the sales inbox and each webhook endpoint's host
 * when the address has an enquiry delivered as a lead, and each demo's host.
 */
export async function collectPersonData(
  db: Db,
  email: string,
  destinations: Destinations,
): Promise<PersonData> {
  const rows = await db
    .select()
    .from(leads)
    .where(eq(sql`lower(${leads.email})`, email.trim().toLowerCase()))
    .orderBy(asc(leads.createdAt));
  const ids = rows.map((row) => row.id);
  const referenceOf = new Map(rows.map((row) => [row.id, row.reference]));
  const demos =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(demoBookings)
          .where(inArray(demoBookings.leadId, ids))
          .orderBy(asc(demoBookings.startsAt));
  const deliveries =
    ids.length === 0
      ? []
      : await db.select().from(jobs).where(inArray(jobs.owner, ids)).orderBy(asc(jobs.createdAt));
  const delivered = rows.some((row) => row.verdict === 'lead');
  const sharedWith = [
    ...(delivered && destinations.leadsTo ? [destinations.leadsTo] : []),
    ...(delivered ? destinations.webhookUrls.map((url) => new URL(url).host) : []),
    ...demos.map((demo) => demo.hostEmail),
  ];
  return {
    enquiries: rows.map((row) => ({
      reference: row.reference,
      receivedAt: row.createdAt.toISOString(),
      ...contactValuesOf(row),
      sourcePage: row.sourcePage,
      demoRequested: row.demoRequested,
      noticeVersion: row.noticeVersion,
      verdict: row.verdict,
    })),
    demos: demos.map((demo) => ({
      reference: referenceOf.get(demo.leadId) ?? '',
      host: demo.hostEmail,
      start: demo.startsAt.toISOString(),
      end: demo.endsAt.toISOString(),
      status: demo.status,
      bookedAt: demo.createdAt.toISOString(),
    })),
    deliveries: deliveries.map((job) => ({
      reference: referenceOf.get(job.owner ?? '') ?? '',
      kind: job.kind,
      status: job.status,
      queuedAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
    })),
    sharedWith: [...new Set(sharedWith)],
  };
}

/** Whether the site holds any enquiry (quarantined ones too) from `email`, in any case. */
export async function holdsDataFor(db: Db, email: string): Promise<boolean> {
  return (await leadsFrom(db, email)).length > 0;
}
