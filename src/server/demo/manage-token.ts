import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Manage tokens (issue 16, item 6): the link in the visitor's invitation and reminder that opens
 * the page to reschedule or cancel, without an account. It binds the booking's id, signed with the
 * site secret (like the booking token, src/server/demo/token.ts, under its own label so neither
 * token passes for the other). It carries no expiry of its own: the page accepts changes until the
 * demo has started (checked against the booking), so a reschedule keeps the same link working.
 *
 * Format: `m1.<booking id>.<HMAC-SHA-256, base64url>`.
 */

const VERSION = 'm1';

function sign(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`demo-manage:${payload}`).digest();
}

/** Issues the manage token of the booking `bookingId`, signed with `secret`. */
export function issueManageToken(bookingId: string, secret: string): string {
  const payload = `${VERSION}.${bookingId}`;
  return `${payload}.${sign(payload, secret).toString('base64url')}`;
}

/**
 * The booking id a manage token was issued for, or null when it is missing, malformed, altered
 * or signed with another secret. Never throws.
 */
export function verifyManageToken(token: unknown, secret: string): string | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [version, bookingId, signature] = parts as [string, string, string];
  const expected = sign(`${version}.${bookingId}`, secret);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? bookingId : null;
}

/** The absolute URL of the manage page for `token` on the site at `siteUrl` (`SITE_URL`). */
export function managePageUrl(siteUrl: URL, token: string): string {
  const url = new URL('contact-us/demo/manage', siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}
