import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { formatDay, formatTime } from '@/lib/demo/display';
import { visitorName } from '@/lib/contact-fields';
import { escapeHtml } from '../../../delivery/email/message';
import { rightsFooter } from '../../privacy';
import type { InvitationAddresses, InvitationFacts, InvitationRecipient } from '../types';
import { invitationCalendar } from './calendar';
import { hostReply } from './host-reply';

/**
 * The invitation e-mail of a booked demo for `recipient`: plain text and HTML
 * (values escaped) with the day, the time in the provider's zone, the meeting link and the enquiry
 * reference, and the calendar of invitationCalendar (the visitor's carries nothing the visitor
 * typed: no name, organisation or message, since the address may not be theirs) as a `text/calendar; method=REQUEST` part that
 * mail clients offer to add. The visitor's reply goes to the host and the host's to the visitor
 * (none, and a warning, for a suppressed visitor: hostReply);
 * the host's copy is copied to `LEADS_TO`. A changed booking (`SEQUENCE` > 0) is announced
 * as moved, its subject prefixed "Updated:"; the visitor's e-mail carries `facts.manageUrl`, the
 * link to reschedule or cancel, when given, and the rights footer (rightsFooter). The Message-ID is derived from booking, sequence and
 * recipient, so a resend after a crash is recognisably the same message.
 */
export function buildInvitation(
  recipient: InvitationRecipient,
  facts: InvitationFacts,
  addresses: InvitationAddresses,
): SendMailOptions {
  const { booking, lead, host } = facts;
  const when = `${formatDay(booking.startsAt.getTime(), addresses.timeZone)}, ${formatTime(booking.startsAt.getTime(), addresses.timeZone)}`;
  const visitor = visitorName(lead);
  const minutes = Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000);
  const updated = booking.sequence > 0 ? 'Updated: ' : '';
  const lines =
    recipient === 'visitor'
      ? [
          'Hello,',
          '',
          `your Nirmaya HIMS demo with ${host.name} ${updated ? 'has moved to' : 'is booked for'} ${when} (${minutes} minutes).`,
        ]
      : [
          `${visitor} (${lead.organization}, ${lead.email}) booked a demo with you for ${when} (${minutes} minutes).`,
          ...hostReply(lead).lines,
        ];
  const details = [`Join: ${host.meetingUrl}`, `Enquiry: ${lead.reference}`];
  const manage = recipient === 'visitor' ? manageLines(facts.manageUrl) : { text: [], html: '' };
  const footer = recipient === 'visitor' ? rightsFooter() : undefined;
  const text = [
    ...lines,
    '',
    ...details,
    '',
    'The attached invitation adds it to your calendar.',
    ...manage.text,
    ...(footer ? ['', footer.text] : []),
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
    ...lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p>Join: <a href="${escapeHtml(host.meetingUrl)}">${escapeHtml(host.meetingUrl)}</a><br>Enquiry: ${escapeHtml(lead.reference)}</p>`,
    '<p>The attached invitation adds it to your calendar.</p>',
    manage.html,
    footer?.html ?? '',
    '</body></html>',
  ].join('\n');
  const common = {
    from: addresses.from,
    messageId: `<demo.${booking.id}.${booking.sequence}.${recipient}@${facts.domain}>`,
    text,
    html,
    icalEvent: {
      method: 'REQUEST',
      filename: 'invite.ics',
      content: invitationCalendar(facts, 'REQUEST', recipient),
    },
  };
  return recipient === 'visitor'
    ? {
        ...common,
        to: lead.email,
        replyTo: { name: host.name, address: host.email },
        subject: `${updated}Your Nirmaya HIMS demo: ${when}`,
      }
    : {
        ...common,
        to: { name: host.name, address: host.email },
        cc: addresses.copyTo,
        ...(hostReply(lead).replyTo && { replyTo: hostReply(lead).replyTo }),
        subject: `${updated}Demo ${lead.reference} with ${lead.organization}: ${when}`,
      };
}

/**
 * The visitor's "pick another time or cancel" paragraph as text lines and HTML
 * (escaped) for `manageUrl`; nothing when there is no link.
 */
export function manageLines(manageUrl: string | undefined): { text: string[]; html: string } {
  if (!manageUrl) return { text: [], html: '' };
  const intro = 'To pick another time or cancel, open';
  return {
    text: ['', `${intro}: ${manageUrl}`],
    html: `<p>${intro} <a href="${escapeHtml(manageUrl)}">your booking page</a>.</p>`,
  };
}
