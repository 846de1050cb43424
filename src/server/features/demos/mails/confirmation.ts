import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import { HOLD_MINUTES } from '../holds';
import { rightsFooter } from '../../privacy';
import type { InvitationAddresses } from '../types';

/**
 * The two e-mails a booking sends to an address its owner has not proved yet, before anything
 * else: the request to confirm a held booking, and the notice that the address already has a demo.
 * Anyone can type anyone's address into the form, so both carry only the site's own words and the
 * signed link: no name, organisation or message the visitor typed, no day or time, no host.
 */

/** What both e-mails are sent from and to: the visitor's address, without the name typed. */
type ProofMailFacts = { bookingId: string; email: string; domain: string };

/**
 * The plain-text request to confirm a held booking (`DEMO_CONFIRM_EMAIL`): `confirmUrl`, the
 * signed link to the confirmation page, and how long the time is held (HOLD_MINUTES). It carries
 * no invitation: that follows the confirmation. It ends with the rights footer (rightsFooter).
 * The Message-ID is derived from the booking and `sentAt` (ms), so each resend is its own message.
 */
export function buildConfirmationRequest(
  facts: ProofMailFacts,
  addresses: Pick<InvitationAddresses, 'from'>,
  confirmUrl: string,
  sentAt: number,
): SendMailOptions {
  return {
    from: addresses.from,
    to: facts.email,
    subject: 'Confirm your Nirmaya HIMS demo',
    messageId: `<demo.${facts.bookingId}.confirm.${sentAt.toString(36)}@${facts.domain}>`,
    text: [
      'Hello,',
      '',
      `a Nirmaya HIMS demo was booked on our website with this e-mail address. We hold its time for ${HOLD_MINUTES} minutes.`,
      '',
      'To confirm the demo, open this link and press "Confirm my demo":',
      confirmUrl,
      '',
      'The invitation with the day, the time and the meeting link follows once you have confirmed.',
      'If you did not ask for a demo, ignore this e-mail: the time is released and nothing more is sent.',
      '',
      rightsFooter().text,
    ].join('\n'),
  };
}

/**
 * The plain-text notice, sent instead of a request to confirm, that the address already has an
 * upcoming demo (the per-e-mail cap, `DEMO_MAX_PER_EMAIL`): with `manageUrl`, the link that shows
 * it and moves or cancels it; without (the demo is itself still waiting for its confirmation), a
 * pointer to the earlier e-mail. It ends with the rights footer. The Message-ID is derived from
 * the hold it answers.
 */
export function buildExistsNotice(
  facts: ProofMailFacts,
  addresses: Pick<InvitationAddresses, 'from'>,
  manageUrl: string | undefined,
): SendMailOptions {
  return {
    from: addresses.from,
    to: facts.email,
    subject: 'Your Nirmaya HIMS demo',
    messageId: `<demo.${facts.bookingId}.exists@${facts.domain}>`,
    text: [
      'Hello,',
      '',
      'a Nirmaya HIMS demo was just asked for on our website with this e-mail address, which already has an upcoming demo with us, so we booked nothing new.',
      '',
      ...(manageUrl
        ? ['To see that demo, move it or cancel it, open:', manageUrl]
        : ['It waits for its confirmation: open the link in our earlier e-mail to confirm it.']),
      '',
      'If you did not ask for a demo, ignore this e-mail: nothing more is sent.',
      '',
      rightsFooter().text,
    ].join('\n'),
  };
}
