import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { enquiryAsCopied, enquiryCopyColumns } from './enquiry-copy';
import { firstAddresses, leads } from './schema';

/**
 * A corrected address keeps its rights, and only its own: when a visitor corrects the address of
 * an enquiry, what was shared under the first address (the enquiry as sent) is kept on record
 * under it (`lead_first_addresses`), so its owner's copy shows it and their erasure removes it,
 * while the enquiry, now under the corrected address, is its corrector's.
 */

/**
 * Records, in `tx` at `now`, the enquiry `leadId` as it is now under its current address, before
 * that address is corrected. Returns whether it had been delivered under it, or undefined when the
 * enquiry is gone.
 */
export async function recordFirstAddress(
  tx: Db,
  leadId: string,
  now: Date,
): Promise<{ delivered: boolean } | undefined> {
  const [row] = await tx
    .select({ ...enquiryCopyColumns, releasedAt: leads.releasedAt })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!row) return undefined;
  const delivered = row.verdict === 'lead' || row.releasedAt !== null;
  await tx.insert(firstAddresses).values({
    id: randomUUID(),
    leadId,
    email: row.email,
    enquiry: enquiryAsCopied(row),
    delivered,
    correctedAt: now,
  });
  return { delivered };
}

/** The records of enquiries first sent with `email` (compared case-insensitively, trimmed). */
export async function firstAddressesOf(db: Db, email: string) {
  return db
    .select({ enquiry: firstAddresses.enquiry, delivered: firstAddresses.delivered })
    .from(firstAddresses)
    .where(eq(sql`lower(${firstAddresses.email})`, email.trim().toLowerCase()));
}

/** Deletes, in `tx`, the records of enquiries first sent with `email`; returns how many. */
export async function eraseFirstAddressesOf(tx: Db, email: string): Promise<number> {
  const removed = await tx
    .delete(firstAddresses)
    .where(eq(sql`lower(${firstAddresses.email})`, email.trim().toLowerCase()))
    .returning({ id: firstAddresses.id });
  return removed.length;
}
