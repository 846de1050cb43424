import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { HOLD_MS } from '../holds';
import { demoBookings } from '../schema';
import type { Db } from '../../../platform/db';
import { leads } from '../../contact';
import { addressKeys } from '../../../platform/people/address-hash';
import { getEnv } from '../../../platform/env';
import {
  admitUnprovenMail,
  mailBudgetLimits,
  type MailAdmission,
} from '../../../platform/people/mail-budget';
import { getSiteSecret } from '../../../platform/security/site-secret';
import type { BookingSettings, DemoBooking } from '../types';
import { enqueueDemoMail } from './mail-jobs';

/**
 * Queues, in the caller's transaction `tx`, the one e-mail a hold sends before its address is
 * proved: the request to confirm it, or, with `existing` (the address's upcoming demo, the
 * per-e-mail cap reached), the notice that a demo already exists. Either counts against the budget
 * of mails to unproven addresses (admitUnprovenMail, kinds `demo.confirm` and `demo.exists`, at
 * `now`, ms), set off by the client group `clientGroup` (hashClientGroup; null: an operator) with
 * the proof of work of the enquiry (`leads.proof_of_work`): past the budget nothing is queued, and
 * the caller shows the visitor the same page; delayed (the site busy, no proof of work), the mail
 * is queued not before its time and the hold extended to HOLD_MS after it. A resend (the visitor's "send it again") is queued the same way:
 * each is its own job.
 * @returns the budget's verdict (`send` or `delay` when queued).
 */
export async function enqueueProofRequest(
  tx: Db,
  booking: DemoBooking,
  settings: Pick<BookingSettings, 'mailBudget' | 'secret'>,
  now: number,
  existing?: DemoBooking,
  clientGroup: string | null = null,
): Promise<MailAdmission['verdict']> {
  const [lead] = await tx
    .select({ email: leads.email, proofOfWork: leads.proofOfWork })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  if (!lead) return 'address-limit';
  const mail = existing ? 'exists' : 'confirm';
  const admission = await admitUnprovenMail(
    tx,
    {
      emailHash: addressKeys(lead.email, settings.secret ?? (await getSiteSecret(tx))).mailbox,
      kind: `demo.${mail}`,
      requester: { group: clientGroup, proofOfWork: lead.proofOfWork },
      now: new Date(now),
    },
    settings.mailBudget ?? mailBudgetLimits(getEnv()),
  );
  // A delayed request keeps the time held for HOLD_MS after it leaves, as a prompt one does.
  if (admission.verdict === 'delay')
    await tx
      .update(demoBookings)
      .set({ heldUntil: new Date(admission.sendAt.getTime() + HOLD_MS), updatedAt: sql`now()` })
      .where(and(eq(demoBookings.id, booking.id), eq(demoBookings.status, 'held')));
  if (admission.verdict === 'send' || admission.verdict === 'delay')
    await enqueueDemoMail(
      tx,
      booking,
      { mail, sequence: booking.sequence, ...(existing && { existing: existing.id }) },
      admission.verdict === 'delay' ? admission.sendAt : undefined,
      now,
    );
  return admission.verdict;
}
