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
  /**
   * Past either cap of upcoming demos (the e-mail address's or the connection's) without
   * confirmation by e-mail: one sentence for both, naming no day or time, so it never tells
   * whoever typed an address whether that address has a demo.
   */
  capped:
    'We cannot book another demo here just now: we book only a few upcoming demos per e-mail address and per connection. If you already booked one, the e-mails we sent hold the link to see, move or cancel it; or write to us.',
};
