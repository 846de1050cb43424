import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { leads } from './schema';

/**
 * Replaces, in the caller's transaction `tx`, the e-mail address of the enquiry `leadId` with
 * `email` (already validated): the visitor's correction of a mistyped address while their demo
 * booking waits for its confirmation (demos' correctHeldAddress, which drops the request sent to
 * the old address and asks the new one for proof). Returns false when the enquiry is gone.
 */
export async function correctEnquiryAddress(
  tx: Db,
  leadId: string,
  email: string,
): Promise<boolean> {
  const [row] = await tx
    .update(leads)
    .set({ email })
    .where(eq(leads.id, leadId))
    .returning({ id: leads.id });
  return Boolean(row);
}
