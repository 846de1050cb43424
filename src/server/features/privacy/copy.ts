import 'server-only';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from '../../delivery/queue/schema';
import { addCounts, type HeldCounts, type PersonalDataHolder } from './personal-data';

/**
 * Everything the site holds for one address (DPDP Act s.11: a summary of the personal data
 * processed and the identities of those it was shared with): each holder's sections (enquiries
 * with their fields, demo bookings, …), the deliveries of those records (queued jobs: kind, state,
 * times) and where they went.
 */
export type PersonData = Record<string, readonly unknown[]> & {
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

/**
 * Collects PersonData for `email` (compared case-insensitively) from `holders`, and what it counts.
 * `holders` are in erasure order (what hangs on a record before it); the copy reads them the other
 * way, each record before what hangs on it: the enquiries, then their demos.
 */
export async function collectPersonData(
  db: Db,
  holders: readonly PersonalDataHolder[],
  email: string,
): Promise<{ data: PersonData; counts: HeldCounts }> {
  const parts = [];
  for (const holder of [...holders].reverse())
    if (holder.copy) parts.push(await holder.copy(db, email));
  const owners = parts.flatMap((part) => part.deliveryOwners);
  const referenceOf = new Map(owners.map(({ owner, reference }) => [owner, reference]));
  const deliveries =
    owners.length === 0
      ? []
      : await db
          .select()
          .from(jobs)
          .where(inArray(jobs.owner, [...referenceOf.keys()]))
          .orderBy(asc(jobs.createdAt));
  const data: PersonData = {
    ...Object.assign({}, ...parts.map((part) => part.sections)),
    deliveries: deliveries.map((job) => ({
      reference: referenceOf.get(job.owner ?? '') ?? '',
      kind: job.kind,
      status: job.status,
      queuedAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
    })),
    sharedWith: [...new Set(parts.flatMap((part) => part.sharedWith))],
  };
  return { data, counts: addCounts(parts.map((part) => part.counts)) };
}

/** What `holders` hold for `email` now, counted. */
export async function countHeld(
  db: Db,
  holders: readonly PersonalDataHolder[],
  email: string,
): Promise<HeldCounts> {
  const parts = [];
  for (const holder of holders) if (holder.count) parts.push(await holder.count(db, email));
  return addCounts(parts);
}

/** Whether `holders` hold anything for `email` (in any case): an enquiry, quarantined ones too. */
export async function holdsDataFor(
  db: Db,
  holders: readonly PersonalDataHolder[],
  email: string,
): Promise<boolean> {
  const counts = await countHeld(db, holders, email);
  return Object.values(counts).some((n) => n > 0);
}
