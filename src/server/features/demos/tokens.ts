import 'server-only';
import { defineSignedToken, ISSUED_AT } from '../../platform/security/signed-token';

/**
 * The three signed tokens of demo booking, thin definitions on the one signed-token helper
 * (src/server/platform/security/signed-token.ts), each under its own label so neither passes for the other:
 *
 * - Booking token: only the visitor who made an enquiry can book a demo for it. The confirmation
 *   of an accepted enquiry carries a token that binds the lead's id (never shown; the bare
 *   reference is not enough) to the time of the enquiry, so it expires a fixed time after the
 *   enquiry however often the booking page is visited (each visit issues the same token). Format:
 *   `b1.<lead id>.<issued-at, ms, base 36>.<HMAC-SHA-256, base64url>`, label `demo-booking`.
 * - Manage token: the link in the visitor's invitation and reminder that opens the page to
 *   reschedule or cancel, without an account. It binds the booking's id and carries no expiry of
 *   its own: the page accepts changes until the demo has started (checked against the booking), so
 *   a reschedule keeps the same link working and links in e-mails already sent stay valid. Format:
 *   `m1.<booking id>.<HMAC-SHA-256, base64url>`, label `demo-manage`. The e-mailed link carries it
 *   in its query once: the first request exchanges it for the MANAGE_COOKIE (src/proxy.ts,
 *   exchangeManageLink), so it never stays in the address bar, the history or a `Referer`.
 * - Confirm token (`DEMO_CONFIRM_EMAIL`): the link in the e-mail that asks the visitor to confirm
 *   a held booking, proving they read that address. It binds the booking's id to the time the
 *   e-mail was queued and expires CONFIRM_TOKEN_MAX_AGE_MS later. The hold itself lapses sooner
 *   (holds.ts, checked against the booking): within the hold the link confirms; later it books
 *   the same time only if it is still free (commands/confirm.ts). Format:
 *   `c1.<booking id>.<issued-at, ms, base 36>.<HMAC-SHA-256, base64url>`, label `demo-confirm`.
 *
 * All are signed with the site secret.
 */

/** How long the booking step stays open after the enquiry (ms): 7 days, whatever the visits. */
export const BOOKING_TOKEN_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Cookie holding the booking token between the booking form and the booking page (path-scoped). */
export const BOOKING_COOKIE = 'nirmaya-demo-booking';

/** The manage page's path: the e-mailed link's, and the path its cookie is scoped to. */
export const MANAGE_PATH = '/contact-us/demo/manage';

/** Cookie holding the manage token for the manage page and its posts (http-only, path-scoped). */
export const MANAGE_COOKIE = 'nirmaya-demo-manage';

/** The confirmation page's path: the e-mailed confirm link's. */
export const CONFIRM_PATH = '/contact-us/demo/confirm';

/**
 * How long a confirm link identifies its booking (ms): 24 hours after its e-mail was queued. The
 * hold lapses after 30 minutes; a visitor who opens the link later the same day still gets the
 * time when it is free, or fresh times.
 */
export const CONFIRM_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const bookingToken = defineSignedToken({
  purpose: 'demo-booking',
  version: 'b1',
  fields: ['leadId', ISSUED_AT],
  maxAgeMs: BOOKING_TOKEN_MAX_AGE_MS,
});

const manageToken = defineSignedToken({
  purpose: 'demo-manage',
  version: 'm1',
  fields: ['bookingId'],
});

/**
 * Issues the booking token of the lead `leadId` whose enquiry arrived at `enquiredAt` (ms since
 * the epoch), signed with `secret`: the same token at every call, valid until
 * BOOKING_TOKEN_MAX_AGE_MS after the enquiry.
 */
export function issueBookingToken(leadId: string, secret: string, enquiredAt: number): string {
  return bookingToken.issue({ leadId }, secret, enquiredAt);
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

const confirmToken = defineSignedToken({
  purpose: 'demo-confirm',
  version: 'c1',
  fields: ['bookingId', ISSUED_AT],
  maxAgeMs: CONFIRM_TOKEN_MAX_AGE_MS,
});

/**
 * Issues the confirm token of the held booking `bookingId` at `issuedAt` (ms since the epoch),
 * signed with `secret`; valid until CONFIRM_TOKEN_MAX_AGE_MS after `issuedAt`.
 */
export function issueConfirmToken(bookingId: string, secret: string, issuedAt: number): string {
  return confirmToken.issue({ bookingId }, secret, issuedAt);
}

/**
 * The booking id a confirm token was issued for, or null when it is missing, altered, signed with
 * another secret, dated in the future or older than CONFIRM_TOKEN_MAX_AGE_MS at `now` (ms since
 * the epoch). Never throws.
 */
export function verifyConfirmToken(
  token: unknown,
  secret: string,
  now: number = Date.now(),
): string | null {
  const check = confirmToken.verify(token, secret, { now });
  return check.ok ? check.values.bookingId : null;
}

/** The absolute URL of the confirmation page for `token` on the site at `siteUrl` (`SITE_URL`). */
export function confirmPageUrl(siteUrl: URL, token: string): string {
  const url = new URL(CONFIRM_PATH.slice(1), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}

/** The absolute URL of the manage page for `token` on the site at `siteUrl` (`SITE_URL`). */
export function managePageUrl(siteUrl: URL, token: string): string {
  const url = new URL(MANAGE_PATH.slice(1), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}
