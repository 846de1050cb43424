import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { privacyRequestKinds } from '@/content/privacy';
import { site } from '@/content/site';
import type { PrivacyKind } from '@/lib/privacy-request-schema';
import { domainOf, escapeHtml } from '../../delivery/email/message';
import type { PersonData } from './copy';
import type { HeldCounts } from './personal-data';
import { rightsFooter } from './footer';

/**
 * The e-mails of a privacy request, each to the person's address, as plain text and HTML (values
 * escaped), with the rights footer: the confirmation link, the copy of their data, the
 * confirmation of an erasure, and the acknowledgement of a request the team answers.
 */

/** `LEADS_FROM`, the sender of every privacy e-mail (replies go to the Grievance Officer). */
export type PrivacyMailFrom = { from: string };

function message(
  to: string,
  subject: string,
  lines: readonly string[],
  from: string,
  messageKey: string,
): SendMailOptions {
  const footer = rightsFooter();
  return {
    from,
    to,
    replyTo: { name: site.grievanceOfficer.name, address: site.grievanceOfficer.email },
    subject,
    messageId: `<privacy.${messageKey}@${domainOf(from)}>`,
    text: [...lines, '', footer.text].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
      ...lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`),
      footer.html,
      '</body></html>',
    ].join('\n'),
  };
}

/** The e-mail with the link confirming a request of `kind` (valid 24 hours; `nonce` names it). */
export function buildLinkMail(
  to: string,
  kind: PrivacyKind,
  url: string,
  nonce: string,
  { from }: PrivacyMailFrom,
): SendMailOptions {
  return message(
    to,
    `Confirm your request: ${privacyRequestKinds[kind].label.toLowerCase()}`,
    [
      `Someone, we hope you, asked ${site.name} on its website: ${privacyRequestKinds[kind].label.toLowerCase()}.`,
      `To confirm it, open this link within 24 hours and press the button: ${url}`,
      'If you did not ask, ignore this e-mail: nothing happens without the button.',
    ],
    from,
    `link.${nonce}`,
  );
}

/**
 * The copy of a person's data (DPDP Act s.11): a summary in the text (`counts`), and every record
 * (`data`: enquiries, demos, deliveries) with the destinations as a JSON attachment
 * (`your-data.json`).
 */
export function buildCopyMail(
  to: string,
  reference: string,
  data: PersonData,
  counts: HeldCounts,
  { from }: PrivacyMailFrom,
): SendMailOptions {
  const mail = message(
    to,
    `Your data at ${site.name} (${reference})`,
    [
      `As you asked (request ${reference}), here is every piece of data we hold for this address: ${counts.enquiries} enquir${counts.enquiries === 1 ? 'y' : 'ies'} and ${counts.demos} demo booking${counts.demos === 1 ? '' : 's'}.`,
      `It was shared with: ${data.sharedWith.join(', ') || 'nobody'}.`,
      'The attached file your-data.json holds all of it, with when each was delivered.',
    ],
    from,
    `copy.${reference}`,
  );
  return {
    ...mail,
    attachments: [
      {
        filename: 'your-data.json',
        contentType: 'application/json',
        content: JSON.stringify(data, null, 2),
      },
    ],
  };
}

/** The confirmation that the address's data is erased (sent before it is suppressed). */
export function buildErasedMail(
  to: string,
  reference: string,
  kind: 'erase' | 'withdraw',
  counts: HeldCounts,
  { from }: PrivacyMailFrom,
): SendMailOptions {
  return message(
    to,
    `Your data is erased (${reference})`,
    [
      `As you asked (request ${reference}), we have erased ${counts.enquiries} enquir${counts.enquiries === 1 ? 'y' : 'ies'} and ${counts.demos} demo booking${counts.demos === 1 ? '' : 's'} of this address; any upcoming demo was cancelled first.`,
      kind === 'withdraw'
        ? 'We will not contact this address again unless you write to us.'
        : 'This is the last e-mail we send to this address unless you write to us again.',
    ],
    from,
    `erased.${reference}`,
  );
}

/** The acknowledgement of a request the team answers (correct, nominate, grievance) by `dueAt`. */
export function buildAcknowledgementMail(
  to: string,
  reference: string,
  kind: PrivacyKind,
  dueAt: Date,
  { from }: PrivacyMailFrom,
): SendMailOptions {
  const due = dueAt.toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  });
  return message(
    to,
    `We have your request (${reference})`,
    [
      `We have your request "${privacyRequestKinds[kind].label}" with reference ${reference}.`,
      `Our team answers it by ${due} at the latest. Quote the reference if you write to us about it.`,
    ],
    from,
    `ack.${reference}`,
  );
}
