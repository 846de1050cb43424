/**
 * Texts of e-mail confirmation of demo bookings (`DEMO_CONFIRM_EMAIL`): what the booking page says
 * while a time is held, and what the confirmation page (/contact-us/demo/confirm) says.
 */

/**
 * The booking page while the visitor's time is held for them, for `minutes` (the hold's length)
 * until `heldUntil` ("11:30 IST"). Worded so it is true whatever the site did with the address
 * (a request to confirm sent, a notice that the address already has a demo, nothing past the
 * budget of such mails, or an enquiry waiting for review): it says only what happens if it arrives.
 * With `delayed` (the site is busy and the enquiry came without JavaScript's proof of work, so
 * such a mail waits its turn) it says the e-mail may take hours and what happens then.
 */
export function heldNotice(
  heldUntil: string,
  minutes: number,
  delayed = false,
): { heading: string; lines: string[] } {
  return {
    heading: 'Confirm your demo by e-mail',
    lines: [
      `We hold this time for you for ${minutes} minutes, until ${heldUntil}.`,
      ...(delayed
        ? [
            `Many requests are reaching us just now, so our e-mails to visitors without JavaScript wait their turn: the e-mail to confirm may take a while, and we hold the time until ${minutes} minutes after it leaves (the time above already includes the wait).`,
          ]
        : []),
      'If your address can receive our e-mails, it has a link to confirm: open it and press "Confirm my demo". The invitation with the meeting link follows your confirmation.',
      `If no e-mail arrives, check your spam folder, have it sent again or correct the address below. Without a confirmation the time is released at ${heldUntil} and nothing more is sent.`,
    ],
  };
}

/** The held step's two forms: send the request again, or send it to a corrected address. */
export const heldActions = {
  resend: 'Send the e-mail again',
  correctLabel: 'Wrong address? Your correct e-mail address',
  correct: 'Send it to this address',
  correctHint: 'The link sent to the earlier address then no longer confirms the demo.',
};

/** What the booking page says after one of the held step's posts, by its outcome. */
export const reRequestNotices: Record<string, string> = {
  sent: 'If this address can receive our e-mails, a link to confirm is on its way to it.',
  'bad-address': 'Please enter a valid e-mail address.',
  limited:
    'Too many booking attempts from your connection. Please wait a few minutes and try again.',
  unavailable: 'Sending is unavailable for a moment. Please try again.',
};

/** The confirmation page, by what its link names. */
export const confirmPage = {
  title: 'Confirm your demo',
  pending: (heldUntil: string) =>
    `We hold this time for you until ${heldUntil}. Press the button to confirm it; the invitation with the meeting link follows by e-mail.`,
  lapsed: (heldUntil: string) =>
    `We held this time for you until ${heldUntil}. Press the button and we book it for you if it is still free; if not, you can pick another time.`,
  button: 'Confirm my demo',
  confirmed: 'This demo is confirmed. The invitation with the meeting link is in your e-mail.',
  released: 'This demo was cancelled, and its time released.',
  invalid:
    'This link is not valid or has expired. Please open the link in your latest e-mail about the demo, or book again from the contact page.',
  limited:
    'Too many booking attempts from your connection. Please wait a few minutes and try again.',
  unavailable: 'Confirming is unavailable for a moment. Please try again.',
};
