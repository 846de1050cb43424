import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Booking tokens (issue 16, item 1): only the visitor who made an enquiry can book for it. The
 * confirmation of an accepted enquiry carries a token that binds the lead's id (never shown; the
 * bare reference is not enough) to the time it was issued, signed with the site secret.
 *
 * Format: `b1.<lead id>.<issued-at, ms, base 36>.<HMAC-SHA-256, base64url>`.
 */

/** How long the booking step stays open after the enquiry (ms): 24 hours. */
export const BOOKING_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function sign(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`demo-booking:${payload}`).digest();
}

/** Issues a booking token for the lead `leadId` at `now` (ms since the epoch), signed with `secret`. */
export function issueBookingToken(
  leadId: string,
  secret: string,
  now: number = Date.now(),
): string {
  const payload = `b1.${leadId}.${now.toString(36)}`;
  return `${payload}.${sign(payload, secret).toString('base64url')}`;
}

/**
 * The lead id a booking token was issued for, or null when it is missing, altered, signed with
 * another secret or older than BOOKING_TOKEN_MAX_AGE_MS at `now` (ms). Never throws.
 */
export function verifyBookingToken(
  token: unknown,
  secret: string,
  now: number = Date.now(),
): string | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'b1') return null;
  const [version, leadId, issued, signature] = parts as [string, string, string, string];
  const expected = sign(`${version}.${leadId}.${issued}`, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const age = now - parseInt(issued, 36);
  return Number.isFinite(age) && age >= 0 && age <= BOOKING_TOKEN_MAX_AGE_MS ? leadId : null;
}
