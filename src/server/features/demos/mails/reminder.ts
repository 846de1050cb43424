import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { formatDay, formatTime } from '@/lib/demo/display';
import { escapeHtml } from '../../../delivery/email/message';
import { rightsFooter } from '../../privacy';
import type { InvitationAddresses, InvitationFacts } from '../types';
import { manageLines } from './invitation';

/**
 * The visitor's reminder of a booked demo (nothing the visitor typed: no name or organisation), sent `DEMO_REMINDER_HOURS` before it: the day and time
 * in the provider's zone, the host and the meeting link, as text and HTML (values escaped), and
 * the link to reschedule or cancel (`facts.manageUrl`) and the rights footer (rightsFooter). The Message-ID is derived from booking and
 * sequence, so a resend is the same message.
 */
export function buildReminder(
  facts: InvitationFacts,
  addresses: InvitationAddresses,
): SendMailOptions {
  const { booking, lead, host } = facts;
  const at = booking.startsAt.getTime();
  const when = `${formatDay(at, addresses.timeZone)}, ${formatTime(at, addresses.timeZone)}`;
  const lines = ['Hello,', `a reminder of your Nirmaya HIMS demo with ${host.name} on ${when}.`];
  const manage = manageLines(facts.manageUrl);
  const footer = rightsFooter();
  return {
    from: addresses.from,
    to: lead.email,
    replyTo: { name: host.name, address: host.email },
    subject: `Reminder: your Nirmaya HIMS demo, ${when}`,
    messageId: `<demo.${booking.id}.${booking.sequence}.reminder@${facts.domain}>`,
    text: [
      ...lines,
      '',
      `Join: ${host.meetingUrl}`,
      `Enquiry: ${lead.reference}`,
      ...manage.text,
      '',
      footer.text,
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p>Join: <a href="${escapeHtml(host.meetingUrl)}">${escapeHtml(host.meetingUrl)}</a><br>Enquiry: ${escapeHtml(lead.reference)}</p>`,
      manage.html,
      footer.html,
      '</body></html>',
    ].join('\n'),
  };
}
