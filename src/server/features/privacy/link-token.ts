import 'server-only';
import { randomUUID } from 'node:crypto';
import { privacyKinds, type PrivacyKind } from '@/lib/privacy-request-schema';
import { defineSignedToken, ISSUED_AT } from '../../platform/security/signed-token';

/** How long a privacy request's link can be confirmed (ms): 24 hours after the request. */
export const PRIVACY_LINK_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The link e-mailed for a privacy request: it proves the address is the requester's and carries
 * the whole request, so nothing is stored before it is confirmed. Format:
 * `p1.<kind>.<address, base64url>.<details, base64url>.<nonce>.<requested at, ms base 36>.<sig>`,
 * label `privacy-request`, signed with the site secret (src/server/platform/security/signed-token.ts).
 */
const linkToken = defineSignedToken({
  purpose: 'privacy-request',
  version: 'p1',
  fields: ['kind', 'email', 'details', 'nonce', ISSUED_AT],
  maxAgeMs: PRIVACY_LINK_MAX_AGE_MS,
});

/** A request as its link carries it. */
export type LinkedRequest = {
  kind: PrivacyKind;
  /** The address as validated (trimmed). */
  email: string;
  /** What the person wrote; '' for none. */
  details: string;
  /** Unique per link: `privacy_requests.link_nonce`, so a link honours one request. */
  nonce: string;
  /** When the form was posted (ms since the epoch). */
  requestedAt: number;
};

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const decode = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/**
 * Issues the link token of a request of `kind` from `email` with `details`, posted at `now` (ms),
 * with a fresh nonce, signed with `secret`; valid for PRIVACY_LINK_MAX_AGE_MS.
 * @returns the token and its nonce
 */
export function issuePrivacyLink(
  request: { kind: PrivacyKind; email: string; details: string },
  secret: string,
  now: number = Date.now(),
): { token: string; nonce: string } {
  const nonce = randomUUID();
  const token = linkToken.issue(
    { kind: request.kind, email: encode(request.email), details: encode(request.details), nonce },
    secret,
    now,
  );
  return { token, nonce };
}

/** Result of verifyPrivacyLink: the request, or why the link is refused. */
export type LinkCheck =
  { ok: true; request: LinkedRequest } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Reads a link token at `now` (ms): `expired` past 24 hours, `invalid` when missing, altered,
 * signed with another secret or dated in the future. Never throws.
 */
export function verifyPrivacyLink(
  token: unknown,
  secret: string,
  now: number = Date.now(),
): LinkCheck {
  const check = linkToken.verify(token, secret, { now });
  if (!check.ok) return { ok: false, reason: check.reason === 'expired' ? 'expired' : 'invalid' };
  const { kind, email, details, nonce } = check.values;
  if (!(privacyKinds as string[]).includes(kind)) return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    request: {
      kind: kind as PrivacyKind,
      email: decode(email),
      details: decode(details),
      nonce,
      requestedAt: now - (check.ageMs ?? 0),
    },
  };
}

/**
 * The address a stored link token carries (trimmed, as typed), without checking its signature or
 * age: for finding the queued links of an address that is being erased. Undefined when `token`
 * is not a link token's shape.
 */
export function addressOfLink(token: string): string | undefined {
  const parts = token.split('.');
  return parts.length === 7 && parts[0] === 'p1' ? decode(parts[2]!).trim() : undefined;
}

/** The path of the confirmation page, whose link carries the token in its query. */
export const CONFIRM_PATH = '/privacy-requests/confirm';

/** The absolute URL of the confirmation page for `token` on the site at `siteUrl` (`SITE_URL`). */
export function confirmUrl(siteUrl: URL, token: string): string {
  const url = new URL(CONFIRM_PATH.slice(1), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}
