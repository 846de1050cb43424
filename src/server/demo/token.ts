import 'server-only';
import { defineSignedToken, ISSUED_AT } from '../security/signed-token';

/**
 * Booking tokens: only the visitor who made an enquiry can book a demo for it. The confirmation
 * of an accepted enquiry carries a token that binds the lead's id (never shown; the bare reference
 * is not enough) to the time it was issued, signed with the site secret.
 *
 * Format: `b1.<lead id>.<issued-at, ms, base 36>.<HMAC-SHA-256, base64url>`, signed under the
 * label `demo-booking` (src/server/security/signed-token.ts).
 */

/** How long the booking step stays open after the enquiry (ms): 24 hours. */
export const BOOKING_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const bookingToken = defineSignedToken({
  purpose: 'demo-booking',
  version: 'b1',
  fields: ['leadId', ISSUED_AT],
  maxAgeMs: BOOKING_TOKEN_MAX_AGE_MS,
});

/** Issues a booking token for the lead `leadId` at `now` (ms since the epoch), signed with `secret`. */
export function issueBookingToken(
  leadId: string,
  secret: string,
  now: number = Date.now(),
): string {
  return bookingToken.issue({ leadId }, secret, now);
}

/**
 * The lead id a booking token was issued for, or null when it is missing, altered, signed with
 * another secret, dated in the future or older than BOOKING_TOKEN_MAX_AGE_MS at `now` (ms since
 * the epoch). Never throws.
 */
export function verifyBookingToken(
  token: unknown,
  secret: string,
  now: number = Date.now(),
): string | null {
  const check = bookingToken.verify(token, secret, { now });
  return check.ok ? check.values.leadId : null;
}
