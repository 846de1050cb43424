import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { formatDay, formatTime } from '@/lib/demo/display';
import { visitorName } from '@/lib/contact-fields';
import { rightsFooter } from '../../privacy';
import type { InvitationAddresses, InvitationFacts } from '../types';

/**
 * The plain-text e-mail that asks the visitor to confirm a held booking (`DEMO_CONFIRM_EMAIL`):
 * the day and time in the provider's zone, the host, until when the time is held (the booking's
 * `heldUntil`), and `confirmUrl`, the signed link to the confirmation page. It carries no
 * invitation: that follows the confirmation. It ends with the rights footer (rightsFooter). The
 * Message-ID is derived from the booking, so a
 * resend after a crash is recognisably the same message.
 */
export function buildConfirmationRequest(
  facts: Pick<InvitationFacts, 'booking' | 'lead' | 'host' | 'domain'>,
  addresses: Pick<InvitationAddresses, 'from' | 'timeZone'>,
  confirmUrl: string,
): SendMailOptions {
  const { booking, lead, host } = facts;
  const zone = addresses.timeZone;
  const at = booking.startsAt.getTime();
  const when = `${formatDay(at, zone)}, ${formatTime(at, zone)}`;
  const heldUntil = formatTime(booking.heldUntil?.getTime() ?? at, zone);
  const visitor = visitorName(lead);
  return {
    from: addresses.from,
    to: { name: visitor, address: lead.email },
    replyTo: { name: host.name, address: host.email },
    subject: `Confirm your Nirmaya HIMS demo: ${when}`,
    messageId: `<demo.${booking.id}.confirm@${facts.domain}>`,
    text: [
      `Dear ${visitor},`,
      '',
      `you picked ${when} for a Nirmaya HIMS demo with ${host.name}. We hold this time for you until ${heldUntil}.`,
      '',
      'To confirm the demo, open this link and press "Confirm my demo":',
      confirmUrl,
      '',
      'The invitation with the meeting link follows once you have confirmed.',
      `If you did not ask for a demo, ignore this e-mail: the time is released at ${heldUntil} and nothing more is sent.`,
      '',
      `Enquiry: ${lead.reference}`,
      '',
      rightsFooter().text,
    ].join('\n'),
  };
}
