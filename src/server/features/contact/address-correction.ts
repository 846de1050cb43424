import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import type { AddressKeys } from '../../platform/people/address-hash';
import { isSuppressed } from '../../platform/people/suppression';
import { enqueueCorrectionNotices } from './correction-notices';
import { recordFirstAddress } from './first-addresses';
import { leads } from './schema';

/**
 * Replaces, in the caller's transaction `tx` at `now`, the e-mail address of the enquiry `leadId`
 * with `email` (already validated; `keys` its addressKeys): the visitor's correction of a mistyped
 * address while their demo booking waits for its confirmation (demos' correctHeldAddress, which
 * drops the request sent to the old address and asks the new one for proof). The replaced address
 * stays on record with the enquiry as it was sent under it (recordFirstAddress: its owner's copy
 * and erasure), `suppressed` is recomputed for the new address, and, when the enquiry had been
 * delivered, the sales inbox gets a one-line note and each of `webhookUrls` the
 * `enquiry.address_corrected` event (enqueueCorrectionNotices). Returns false when the enquiry is
 * gone.
 */
export async function correctEnquiryAddress(
  tx: Db,
  leadId: string,
  email: string,
  keys: AddressKeys,
  now: Date,
  webhookUrls: readonly string[] = [],
): Promise<boolean> {
  const first = await recordFirstAddress(tx, leadId, now);
  if (!first) return false;
  await tx
    .update(leads)
    .set({ email, suppressed: await isSuppressed(tx, keys) })
    .where(eq(leads.id, leadId));
  if (first.delivered) await enqueueCorrectionNotices(tx, leadId, webhookUrls, now);
  return true;
}
