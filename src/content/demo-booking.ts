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
  expired: 'The time we held for you has passed, and it is no longer free. Please pick another.',
  'client-cap':
    'Your connection already has the most upcoming demos we book for one place; use the link in their e-mails to move one, or write to us.',
};

/**
 * The notice past the per-e-mail cap when bookings are not confirmed by e-mail
 * (`DEMO_CONFIRM_EMAIL=0`): it names no day or time, only where the link is. With confirmation on,
 * that booking gets the page of any hold instead.
 */
export const emailCapNotice =
  'This e-mail address already has an upcoming demo with us; the e-mails we sent to it hold the link to see, move or cancel it.';
