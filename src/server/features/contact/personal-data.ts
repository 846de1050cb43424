import 'server-only';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from '../../delivery/queue/schema';
import { dropJobsOf } from '../../delivery/queue/operations';
import type { PersonalDataHolder } from '../privacy';
import { firstAddresses, leads } from './schema';
import { enquiryAsCopied, enquiryCopyColumns } from './enquiry-copy';
import { eraseFirstAddressesOf, firstAddressesOf } from './first-addresses';

/**
 * The contact form's part of a person's data: their enquiries (every field of the form, quarantined
 * ones too) and the jobs that deliver them, copied, erased and expired as privacy defines it.
 */

/** An enquiry from one address: its id and reference. */
export type EnquiryOf = {
  id: string;
  reference: string;
  /** Whether its deliveries were ever queued: a lead, or quarantined spam an operator released. */
  delivered: boolean;
};

/** The enquiries from `email` (compared case-insensitively, trimmed): id, reference, delivered. */
export async function enquiriesFrom(db: Db, email: string): Promise<EnquiryOf[]> {
  return db
    .select({
      id: leads.id,
      reference: leads.reference,
      delivered: sql<boolean>`(${leads.verdict} = 'lead' OR ${leads.releasedAt} IS NOT NULL)`,
    })
    .from(leads)
    .where(eq(sql`lower(${leads.email})`, email.trim().toLowerCase()));
}

/** The id of the enquiry `reference` (any case, spaces around), or undefined. */
export async function enquiryIdOf(db: Db, reference: string): Promise<string | undefined> {
  const [lead] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.reference, reference.trim().toUpperCase()));
  return lead?.id;
}

/** The address of the enquiry `reference` (any case, spaces around), or undefined. */
export async function enquiryAddressOf(db: Db, reference: string): Promise<string | undefined> {
  const [lead] = await db
    .select({ email: leads.email })
    .from(leads)
    .where(eq(leads.reference, reference.trim().toUpperCase()));
  return lead?.email;
}

/** Where the site delivers enquiries: `LEADS_TO` and `WEBHOOK_URLS`. */
export type Destinations = { leadsTo?: string; webhookUrls: readonly string[] };

/**
 * Deletes the enquiries `ids` and their jobs, in the caller's transaction; returns how many of
 * each were deleted.
 */
async function deleteEnquiries(
  tx: Db,
  ids: readonly string[],
): Promise<{ enquiries: number; jobs: number }> {
  if (ids.length === 0) return { enquiries: 0, jobs: 0 };
  const dropped = await dropJobsOf(tx, ids);
  const removed = await tx
    .delete(leads)
    .where(inArray(leads.id, [...ids]))
    .returning({ id: leads.id });
  return { enquiries: removed.length, jobs: dropped };
}

/**
 * Erases every enquiry from `email` (compared case-insensitively) and its delivery jobs, in the
 * caller's transaction; their demo bookings go with them (foreign key). Returns the enquiries
 * erased, and how many enquiries and jobs were deleted.
 */
export async function eraseEnquiriesFrom(
  tx: Db,
  email: string,
): Promise<{ erased: EnquiryOf[]; enquiries: number; jobs: number }> {
  const erased = await enquiriesFrom(tx, email);
  return {
    erased,
    ...(await deleteEnquiries(
      tx,
      erased.map((lead) => lead.id),
    )),
  };
}

/**
 * The contact form's registration (`destinations`: where its enquiries were delivered):
 * - copy: every enquiry from the address with every field of the form (src/lib/contact-fields.ts),
 *   and, for an address a visitor later corrected, the enquiry as it was sent under it; its jobs, and the sales inbox and each webhook host when one was delivered as a lead;
 * - erase: the enquiries and their jobs, telling the webhook receivers of those they got, and the
 *   record of an enquiry first sent with the address (the enquiry itself stays its corrector's);
 * - expire: enquiries past LEADS_RETENTION_DAYS (released spam too) and quarantined spam never
 *   released past SPAM_RETENTION_DAYS, with their jobs.
 */
export function contactPersonalData(destinations: Destinations): PersonalDataHolder {
  return {
    name: 'contact',
    tables: [leads, firstAddresses, jobs],
    count: async (db, email) => ({
      enquiries:
        (await enquiriesFrom(db, email)).length + (await firstAddressesOf(db, email)).length,
    }),
    copy: async (db, email) => {
      const rows = await db
        .select({ ...enquiryCopyColumns, id: leads.id })
        .from(leads)
        .where(eq(sql`lower(${leads.email})`, email.trim().toLowerCase()))
        .orderBy(asc(leads.createdAt));
      // Enquiries first sent with the address and corrected since: only what was sent under it.
      const first = await firstAddressesOf(db, email);
      const delivered =
        rows.some((row) => row.verdict === 'lead') || first.some((row) => row.delivered);
      return {
        sections: {
          enquiries: [...rows.map(enquiryAsCopied), ...first.map((row) => row.enquiry)],
        },
        deliveryOwners: rows.map((row) => ({ owner: row.id, reference: row.reference })),
        sharedWith: [
          ...(delivered && destinations.leadsTo ? [destinations.leadsTo] : []),
          ...(delivered ? destinations.webhookUrls.map((url) => new URL(url).host) : []),
        ],
        counts: { enquiries: rows.length + first.length },
      };
    },
    erase: async (tx, email) => {
      const { erased } = await eraseEnquiriesFrom(tx, email);
      // A corrected enquiry's first address: only its record goes, the enquiry stays its sender's.
      const first = await eraseFirstAddressesOf(tx, email);
      return {
        counts: { enquiries: erased.length + first },
        // Receivers only ever got delivered enquiries: quarantined spam is erased without an event.
        sharedReferences: erased.filter((lead) => lead.delivered).map((lead) => lead.reference),
      };
    },
    expire: async (db, now, { leadsDays, spamDays }) => {
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
        return deleteEnquiries(
          tx,
          expired.map((row) => row.id),
        );
      });
      return { enquiries: removed.enquiries };
    },
  };
}
