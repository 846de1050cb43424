import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { visitorName } from '@/lib/contact-fields';
import type { InvitationFacts } from '../types';

/** What a host's e-mail tells them of a suppressed visitor's address. */
export const SUPPRESSED_VISITOR_LINE =
  'Their address is suppressed (its owner asked us to erase their data or stop contacting them), and this booking may not come from them: do not write to this address.';

/**
 * The Reply-To of a host's e-mail about `lead`'s demo (the visitor), and the lines it adds: none
 * and a warning when the visitor's address is suppressed, so that replying from a mail client,
 * outside the site's suppression gate, never writes to it.
 */
export function hostReply(lead: InvitationFacts['lead']): {
  replyTo?: SendMailOptions['replyTo'];
  lines: string[];
} {
  return lead.suppressed
    ? { lines: ['', SUPPRESSED_VISITOR_LINE] }
    : { replyTo: { name: visitorName(lead), address: lead.email }, lines: [] };
}
