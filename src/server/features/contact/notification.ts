import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import {
  contactLabels,
  multiLineFields,
  singleLineFields,
  visitorName,
  type ContactField,
} from '@/lib/contact-fields';
import { domainOf, escapeHtml } from '../../delivery/email/message';

/** The stored enquiry an e-mail is built from. */
export type LeadForEmail = {
  id: string;
  reference: string;
  createdAt: Date;
  /** The address was suppressed when the enquiry came (see `leads.suppressed`). */
  suppressed?: boolean;
} & Record<ContactField, string>;

/**
 * What the notification of an enquiry from a suppressed address says instead of "reply to this
 * e-mail": its owner asked to be erased or left alone, and anyone can type an address.
 */
export const SUPPRESSED_NOTE =
  'Suppressed address: its owner asked us to erase their data or to stop contacting them, and the site sends it nothing. This enquiry may not come from them: do not write to this address. If its owner wants to hear from us again, they ask at /privacy-requests.';

/** Sender, recipients and the domain used in Message-IDs. */
export type NotificationAddresses = {
  /** `LEADS_FROM`, e.g. `Nirmaya website <no-reply@nirmaya.example>`. */
  from: string;
  /** `LEADS_TO`: one address or a comma-separated list. */
  to: string;
};

/**
 * Builds the provider's notification for one enquiry: plain text and HTML (every value escaped)
 * listing the fields of src/lib/contact-fields.ts under their form labels, each one-line field in
 * a row and each multi-line field (the message) as a block after them, `(none)` when empty;
 * Reply-To the visitor, and a Message-ID derived from the lead id, so a resend after a crash is
 * recognisably the same message. An enquiry from a suppressed address says so (SUPPRESSED_NOTE)
 * in place of the reply line, in its subject, and has no Reply-To. Header values are passed as structured fields; nodemailer
 * encodes them, and the schema has already refused line breaks in single-line fields.
 */
export function buildNotification(
  lead: LeadForEmail,
  addresses: NotificationAddresses,
): SendMailOptions {
  const received = lead.createdAt.toISOString();
  const text = [
    `New enquiry ${lead.reference} from the website (received ${received}).`,
    '',
    ...singleLineFields.map((field) => `${contactLabels[field]}: ${lead[field]}`),
    ...multiLineFields.flatMap((field) => [
      '',
      `${contactLabels[field]}:`,
      lead[field] || '(none)',
    ]),
    '',
    lead.suppressed ? SUPPRESSED_NOTE : 'Reply to this e-mail to answer the visitor.',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
    `<p>New enquiry <strong>${escapeHtml(lead.reference)}</strong> from the website (received ${escapeHtml(received)}).</p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...singleLineFields.map(
      (field) =>
        `<tr><th align="left" style="vertical-align:top">${contactLabels[field]}</th><td>${escapeHtml(lead[field])}</td></tr>`,
    ),
    '</table>',
    ...multiLineFields.flatMap((field) => [
      `<p><strong>${contactLabels[field]}:</strong></p>`,
      `<p style="white-space:pre-wrap">${lead[field] ? escapeHtml(lead[field]) : '(none)'}</p>`,
    ]),
    lead.suppressed
      ? `<p><strong>${escapeHtml(SUPPRESSED_NOTE)}</strong></p>`
      : '<p>Reply to this e-mail to answer the visitor.</p>',
    '</body></html>',
  ].join('\n');
  return {
    from: addresses.from,
    to: addresses.to,
    ...(lead.suppressed ? {} : { replyTo: { name: visitorName(lead), address: lead.email } }),
    subject: `Website enquiry ${lead.reference}${lead.suppressed ? ' (suppressed address)' : ''}: ${lead.subject}`,
    messageId: `<enquiry.${lead.id}@${domainOf(addresses.from)}>`,
    text,
    html,
  };
}
