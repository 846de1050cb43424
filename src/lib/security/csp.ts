/** Where browsers send Content-Security-Policy violation reports (`report-uri` and `report-to`). */
export const CSP_REPORT_PATH = '/api/csp-report';

/** The Reporting API endpoint's name: `Reporting-Endpoints: csp="…"` and the CSP's `report-to csp`. */
export const CSP_REPORT_ENDPOINT = 'csp';

/** What varies per response in the Content-Security-Policy. */
export type PolicyInput = {
  /** `'sha256-…'` sources of the inline scripts of a prerendered page. */
  scriptHashes?: readonly string[];
  /** Per-request nonce for pages rendered on demand (Next.js adds it to its own scripts). */
  nonce?: string;
  /** Served over HTTPS: also ask the browser to upgrade any stray `http:` subresource. */
  https?: boolean;
  /** `next dev` only: React's development build uses `eval` for its debugging aids. */
  development?: boolean;
};

/**
 * The site's Content-Security-Policy. Scripts come only from this origin plus the inline scripts
 * the caller vouches for (by hash or nonce): no `'unsafe-inline'`, no `'unsafe-eval'`. Styles allow
 * `'unsafe-inline'` because React renders `style` attributes; that is the one relaxation.
 * Violations are reported to {@link CSP_REPORT_PATH}.
 */
export function contentSecurityPolicy({
  scriptHashes = [],
  nonce,
  https = false,
  development = false,
}: PolicyInput): string {
  const scriptSources = [
    "'self'",
    ...(nonce ? [`'nonce-${nonce}'`] : []),
    ...scriptHashes,
    ...(development ? ["'unsafe-eval'"] : []),
  ];
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
    // Violations are reported to the site (src/app/api/csp-report): `report-to` where the
    // Reporting API exists, `report-uri` elsewhere (browsers with both use `report-to`).
    `report-uri ${CSP_REPORT_PATH}`,
    `report-to ${CSP_REPORT_ENDPOINT}`,
  ];
  return directives.join('; ');
}

/** A fresh 128-bit nonce, base64-encoded (Web Crypto, so it works in any runtime). */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
