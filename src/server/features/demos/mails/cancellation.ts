import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { formatDay, formatTime } from '@/lib/demo/display';
import { visitorName } from '@/lib/contact-fields';
import { escapeHtml } from '../../../delivery/email/message';
import { rightsFooter } from '../../privacy';
import type {
  CancellationReason,
  InvitationAddresses,
  InvitationFacts,
  InvitationRecipient,
} from '../types';
import { invitationCalendar } from './calendar';
import { hostReply } from './host-reply';

/**
 * The e-mail withdrawing a demo from `recipient`'s calendar: text and HTML
 * (values escaped) naming the day and time in the provider's zone, and the calendar of
 * invitationCalendar with `METHOD:CANCEL` (same `UID`, the change's `SEQUENCE`), which mail
 * clients apply to the event. `facts.booking` is the demo as it was announced (its host, time and
 * the change's sequence). `moved` tells a host the demo went to another host; `cancelled` tells the
 * visitor (who may book again; with the rights footer, rightsFooter; nothing the visitor typed) or the host (copied to
 * `LEADS_TO`). The Message-ID is derived from
 * booking, sequence and recipient, so a resend is recognisably the same message.
 */
export function buildCancellation(
  recipient: InvitationRecipient,
  reason: CancellationReason,
  facts: InvitationFacts,
  addresses: InvitationAddresses,
): SendMailOptions {
  const { booking, lead, host } = facts;
  const at = booking.startsAt.getTime();
  const when = `${formatDay(at, addresses.timeZone)}, ${formatTime(at, addresses.timeZone)}`;
  const visitor = visitorName(lead);
  const lines =
    recipient === 'visitor'
      ? [
          'Hello,',
          `your Nirmaya HIMS demo with ${host.name} on ${when} is cancelled.`,
          'To find another time, reply to this e-mail or send a new request on our website.',
        ]
      : reason === 'moved'
        ? [
            `The demo of ${visitor} (${lead.organization}) on ${when} has moved to another host; it is removed from your calendar.`,
          ]
        : [
            `The demo of ${visitor} (${lead.organization}, ${lead.email}) on ${when} is cancelled.`,
            ...hostReply(lead).lines,
          ];
  const footer = recipient === 'visitor' ? rightsFooter() : undefined;
  const common = {
    from: addresses.from,
    messageId: `<demo.${booking.id}.${booking.sequence}.${recipient}-cancel@${facts.domain}>`,
    text: [...lines, '', `Enquiry: ${lead.reference}`, ...(footer ? ['', footer.text] : [])].join(
      '\n',
    ),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p>Enquiry: ${escapeHtml(lead.reference)}</p>`,
      footer?.html ?? '',
      '</body></html>',
    ].join('\n'),
    icalEvent: {
      method: 'CANCEL',
      filename: 'cancel.ics',
      content: invitationCalendar(facts, 'CANCEL', recipient),
    },
  };
  return recipient === 'visitor'
    ? {
        ...common,
        to: lead.email,
        replyTo: { name: host.name, address: host.email },
        subject: `Cancelled: your Nirmaya HIMS demo, ${when}`,
      }
    : {
        ...common,
        to: { name: host.name, address: host.email },
        ...(reason === 'cancelled' ? { cc: addresses.copyTo } : {}),
        ...(hostReply(lead).replyTo && { replyTo: hostReply(lead).replyTo }),
        subject: `Cancelled: demo ${lead.reference} with ${lead.organization}, ${when}`,
      };
}
