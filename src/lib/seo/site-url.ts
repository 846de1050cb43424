import { z } from 'zod';
import { resolveSitePath } from './url';

/** Origin used when `SITE_URL` is unset: the local `next start`. */
export const DEFAULT_SITE_URL = 'http://localhost:3000';

const siteUrlSchema = z.url({ protocol: /^https?$/, message: 'SITE_URL must be an http(s) URL.' });

/**
 * The public base URL of the site, from the `SITE_URL` environment variable (default
 * {@link DEFAULT_SITE_URL}); canonical links, sitemap, robots.txt, share images and JSON-LD are
 * absolute against it. Read where it is used, so prerendered pages take the value at build time.
 *
 * @param value The raw value (default `process.env.SITE_URL`); empty counts as unset.
 * @returns The URL without query or hash, its path ending in `/`.
 * @throws Error when the value is not an http(s) URL.
 */
export function siteUrl(value: string | undefined = process.env.SITE_URL): URL {
  const parsed = siteUrlSchema.safeParse(value || DEFAULT_SITE_URL);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid SITE_URL.');
  const url = new URL(parsed.data);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** Hosts where `SITE_URL` may be plain http: the developer's own machine. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether `value` (`SITE_URL`) may carry the links the site e-mails (privacy links, sign-in links,
 * booking manage links): an `https:` URL without credentials, or `http:` on localhost, 127.0.0.1
 * or [::1]. Unset or unparsable is unfit: the links would point at {@link DEFAULT_SITE_URL}, which
 * nobody else can open, or travel in clear to a host on the network.
 */
export function isSecureSiteUrl(value: string | undefined): boolean {
  if (!value || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password) return false;
  return (
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  );
}

/**
 * The absolute URL of a site path against `SITE_URL`, e.g. `/products/3` →
 * `https://example.org/products/3` (see {@link resolveSitePath}).
 */
export function absoluteUrl(path: string): string {
  return resolveSitePath(path, siteUrl());
}
