/**
 * Texts of e-mail confirmation of demo bookings (`DEMO_CONFIRM_EMAIL`): what the booking page says
 * while a time is held, and what the confirmation page (/contact-us/demo/confirm) says.
 */

/** The booking page while the visitor's time is held for them, until `heldUntil` ("11:30 IST"). */
export function heldNotice(heldUntil: string): { heading: string; lines: string[] } {
  return {
    heading: 'Confirm your demo by e-mail',
    lines: [
      `We hold this time for you for 30 minutes, until ${heldUntil}.`,
      'If your address can receive our e-mails, it has a link to confirm: open it and press "Confirm my demo". The invitation with the meeting link follows your confirmation.',
      'If the e-mail has not arrived in a few minutes, check your spam folder.',
    ],
  };
}

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
