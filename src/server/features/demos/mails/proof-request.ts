import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { leads } from '../../contact';
import { addressKeys } from '../../../platform/people/address-hash';
import { getEnv } from '../../../platform/env';
import {
  admitUnprovenMail,
  mailBudgetLimits,
  type MailBudgetVerdict,
} from '../../../platform/people/mail-budget';
import { getSiteSecret } from '../../../platform/security/site-secret';
import type { BookingSettings, DemoBooking } from '../types';
import { enqueueDemoMail } from './mail-jobs';

/**
 * Queues, in the caller's transaction `tx`, the one e-mail a hold sends before its address is
 * proved: the request to confirm it, or, with `existing` (the address's upcoming demo, the
 * per-e-mail cap reached), the notice that a demo already exists. Either counts against the budget
 * of mails to unproven addresses (admitUnprovenMail, kinds `demo.confirm` and `demo.exists`, at
 * `now`, ms); past it nothing is queued, and the caller shows the visitor the same page. A resend
 * (the visitor's "send it again") is queued the same way: each is its own job.
 * @returns the budget's verdict (`send` when queued).
 */
export async function enqueueProofRequest(
  tx: Db,
  booking: DemoBooking,
  settings: Pick<BookingSettings, 'mailBudget' | 'secret'>,
  now: number,
  existing?: DemoBooking,
): Promise<MailBudgetVerdict> {
  const [lead] = await tx
    .select({ email: leads.email })
    .from(leads)
    .where(eq(leads.id, booking.leadId));
  if (!lead) return 'address-limit';
  const mail = existing ? 'exists' : 'confirm';
  const verdict = await admitUnprovenMail(
    tx,
    {
      emailHash: addressKeys(lead.email, settings.secret ?? (await getSiteSecret(tx))).mailbox,
      kind: `demo.${mail}`,
      now: new Date(now),
    },
    settings.mailBudget ?? mailBudgetLimits(getEnv()),
  );
  if (verdict === 'send')
    await enqueueDemoMail(
      tx,
      booking,
      { mail, sequence: booking.sequence, ...(existing && { existing: existing.id }) },
      undefined,
      now,
    );
  return verdict;
}
