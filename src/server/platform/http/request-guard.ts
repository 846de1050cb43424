import 'server-only';
import {
  ACTION_BODY_LIMIT_BYTES,
  isRefusalPagePath,
  URL_LIMIT_BYTES,
  type Refusal,
} from '@/lib/http/request-limits';
import { checkActionForm } from '@/lib/security/action-form';
import { readBytesWithin } from './read-body';
import { isSameSite, originFacts } from './same-site';
import type { TrustProxy } from '../../../lib/http/trust-proxy';

/**
 * Pages whose forms post server actions: the contact form (and its booking step), the booking page
 * (fresh times after "slot gone"), the manage page (reschedule, cancel; docs/demo-booking.md), the
 * confirmation page of a held booking, the privacy-request form and its confirmation page
 * (docs/operations.md), and every page of the operator console (see isActionPath).
 */
const ACTION_PATHS: ReadonlySet<string> = new Set([
  '/contact-us',
  '/contact-us/demo',
  '/contact-us/demo/manage',
  '/contact-us/demo/confirm',
  '/privacy-requests',
  '/privacy-requests/confirm',
]);

/** Route handlers outside /api that answer a plain form POST themselves (the console's export). */
const ROUTE_POST_PATHS: ReadonlySet<string> = new Set(['/admin/export.csv']);

/** The operator console's pages, each of which may post its actions. */
const CONSOLE_PREFIX = '/admin';

/** Whether a POST to `pathname` may carry a server action. */
function isActionPath(pathname: string): boolean {
  return (
    ACTION_PATHS.has(pathname) ||
    pathname === CONSOLE_PREFIX ||
    pathname.startsWith(`${CONSOLE_PREFIX}/`)
  );
}

/** Methods every page answers; route handlers under /api answer their own methods. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the guard knows of the build, from its manifests (null: unknown, e.g. under `next dev`). */
export type BuildFacts = {
  /** The ids of the server actions. */
  actionIds: ReadonlySet<string> | null;
  /** Whether a path is served by a route handler under /api. */
  isApiRoute: (pathname: string) => boolean | null;
};

/** What the guard knows of the site's configuration, for the same-site check of action posts. */
export type SiteFacts = {
  /** TRUST_PROXY: whose `X-Forwarded-Host` names the host the visitor addressed. */
  trust: TrustProxy;
  /** The origins allowed besides the request's own host (siteOrigins: SITE_URL's). */
  allowedOrigins: readonly string[];
};

/** Whether a path's percent-escapes decode (`%E0%A4%A` or a lone `%` do not). */
function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides, before Next.js reads the request, whether it is one Next.js would answer with 5xx or
 * that no route of this site accepts (docs/security.md):
 * - a request target over `URL_LIMIT_BYTES`: 414;
 * - a console or API path whose percent-escapes do not decode (`/admin/%E0%A4%A`): 400, where
 *   Next.js would fail decoding it (other paths get their page's normal answer: `/products/%` its
 *   first tab, an unknown path the not-found page);
 * - a method other than GET, HEAD, OPTIONS on anything but the ACTION_PATHS, the route handlers
 *   under /api and a POST to ROUTE_POST_PATHS (unknown /api paths included, which Next.js would
 *   try as an action): 405
 *   (the paths of the refusal pages themselves: 404);
 * - a POST to one of the ACTION_PATHS with an `Origin` of another site (isSameSite with `site`;
 *   Next.js would throw, log an error and answer 500): 403, before its body is read; a post
 *   without `Origin` goes on to the action, whose own check refuses it;
 * - a POST to one of the ACTION_PATHS: not `multipart/form-data` with a boundary: 400; a body over
 *   `ACTION_BODY_LIMIT_BYTES` by Content-Length or, chunked, as it streams in: 413; a body that is
 *   not valid multipart: 400; an unknown or stale action id: 404; arguments React cannot decode: 400.
 * Reads at most `ACTION_BODY_LIMIT_BYTES` of the body (from the copy Next.js hands the proxy).
 * @param request the request as the proxy sees it
 * @param build the build's action ids and API routes (when unknown, ids are not checked and every
 *   /api path is let through)
 * @param site TRUST_PROXY and the allowed origins (when absent, the origin is left to Next.js)
 * @returns the refusal, or null to let Next.js answer
 */
export async function guardRequest(
  request: Request,
  build: BuildFacts,
  site?: SiteFacts,
): Promise<Refusal | null> {
  const url = new URL(request.url);
  if (Buffer.byteLength(url.pathname + url.search) > URL_LIMIT_BYTES)
    return { status: 414, reason: 'url-length' };
  if (/^\/(admin|api)(\/|$)/.test(url.pathname) && !decodes(url.pathname))
    return { status: 400, reason: 'bad-encoding' };
  if (isRefusalPagePath(url.pathname)) return { status: 404, reason: 'refusal-page' };
  if (READ_METHODS.has(request.method)) return null;
  if (url.pathname.startsWith('/api/') && build.isApiRoute(url.pathname) !== false) return null;
  if (request.method === 'POST' && ROUTE_POST_PATHS.has(url.pathname)) return null;
  if (request.method !== 'POST' || !isActionPath(url.pathname))
    return { status: 405, reason: 'method' };
  if (site) {
    const facts = originFacts(request.headers, site.trust);
    if (facts.origin && !isSameSite(facts, site.allowedOrigins))
      return { status: 403, reason: 'cross-site' };
  }

  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;(.*;)?\s*boundary=[^;]/i.test(contentType))
    return { status: 400, reason: 'content-type' };
  const body = await readBytesWithin(request, ACTION_BODY_LIMIT_BYTES);
  if (!body) return { status: 413, reason: 'body-size' };
  let form: FormData;
  try {
    // The parser Next.js itself uses for a form posted without JavaScript.
    form = await new Request(url, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    return { status: 400, reason: 'malformed-multipart' };
  }
  if (!build.actionIds) return null;
  return checkActionForm(form, request.headers.get('next-action'), build.actionIds);
}
