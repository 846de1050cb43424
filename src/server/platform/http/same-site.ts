import 'server-only';

/** The request facts the same-site check reads. */
export type OriginFacts = {
  /** The `Origin` header (null when absent). */
  origin: string | null;
  /** The host the visitor addressed (`X-Forwarded-Host` or `Host`). */
  host: string | null;
};

/**
 * Whether a form post comes from this site: `Origin` must be present and name the request's own
 * host or one of `allowedOrigins` (e.g. `SITE_URL`'s). Cross-site posts are refused.
 */
export function isSameSite(request: OriginFacts, allowedOrigins: readonly string[]): boolean {
  if (!request.origin || request.origin === 'null') return false;
  let origin: URL;
  try {
    origin = new URL(request.origin);
  } catch {
    return false;
  }
  if (request.host && origin.host === request.host) return true;
  return allowedOrigins.some((allowed) => allowed === origin.origin);
}
