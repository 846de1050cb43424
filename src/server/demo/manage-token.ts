import 'server-only';
import { defineSignedToken } from '../security/signed-token';

/**
 * Manage tokens: the link in the visitor's invitation and reminder that opens the page to
 * reschedule or cancel, without an account. It binds the booking's id, signed with the site
 * secret under its own label, so neither it nor the booking token (src/server/demo/token.ts)
 * passes for the other. It carries no expiry of its own: the page accepts changes until the demo
 * has started (checked against the booking), so a reschedule keeps the same link working, and
 * links in e-mails already sent stay valid.
 *
 * Format: `m1.<booking id>.<HMAC-SHA-256, base64url>`, signed under the label `demo-manage`
 * (src/server/security/signed-token.ts).
 */

const manageToken = defineSignedToken({
  purpose: 'demo-manage',
  version: 'm1',
  fields: ['bookingId'],
});

/** Issues the manage token of the booking `bookingId`, signed with `secret` (always the same). */
export function issueManageToken(bookingId: string, secret: string): string {
  return manageToken.issue({ bookingId }, secret);
}

/**
 * The booking id a manage token was issued for, or null when it is missing, malformed, altered
 * or signed with another secret. Never throws.
 */
export function verifyManageToken(token: unknown, secret: string): string | null {
  const check = manageToken.verify(token, secret);
  return check.ok ? check.values.bookingId : null;
}

/** The absolute URL of the manage page for `token` on the site at `siteUrl` (`SITE_URL`). */
export function managePageUrl(siteUrl: URL, token: string): string {
  const url = new URL('contact-us/demo/manage', siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}
