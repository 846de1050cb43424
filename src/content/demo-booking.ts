/**
 * What the booking page (/contact-us/demo) says above the times after a booking post that did not
 * book, by its outcome.
 */
export const bookingNotices: Record<string, string> = {
  gone: 'Sorry, that time was just taken. Please pick another.',
  invalid: 'Please pick one of the times below.',
  limited:
    'Too many booking attempts from your connection. Please wait a few minutes and try again.',
  unavailable: 'Booking is unavailable for a moment. Please try again.',
  expired:
    'The 30 minutes we held your time for have passed, and it is no longer free. Please pick another.',
  'client-cap':
    'Your connection already has the most upcoming demos we book for one place; use the link in their e-mails to move one, or write to us.',
};

/**
 * The notice when the enquiry's e-mail address already has an upcoming demo, naming it (its day
 * and time in the provider's zone) when it is still booked.
 */
export function emailCapNotice(demo: { day: string; time: string } | undefined): string {
  return demo
    ? `You already have a demo on ${demo.day}, ${demo.time}; use the link in its e-mail to move it.`
    : 'You already have a demo booked with this e-mail address; use the link in its e-mail to move it.';
}
