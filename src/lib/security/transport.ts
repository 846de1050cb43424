/**
 * Whether the visitor reached the site over HTTPS: the site's public URL is https, the request
 * itself is, or (only with `TRUST_PROXY` set, since clients can send any header) the TLS-terminating
 * proxy says so in `X-Forwarded-Proto`.
 */
export function isHttps(
  request: { url: string; headers: Headers },
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (env.SITE_URL?.startsWith('https://')) return true;
  if (request.url.startsWith('https://')) return true;
  const trusted = !['', '0', 'false', undefined].includes(env.TRUST_PROXY?.trim());
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return trusted && proto === 'https';
}

/** HSTS value: two years, subdomains included (not `preload`, which is a separate commitment). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';
