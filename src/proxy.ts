import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, createNonce } from '@/lib/security/csp';
import {
  hasPrerenderedOutput,
  notFoundScriptHashes,
  prerenderedScriptHashes,
} from '@/server/platform/security/prerendered-hashes';
import { productAlias } from '@/lib/security/product-alias';
import { isApiRoute, refusalPage, serverActionIds } from '@/server/platform/security/build-facts';
import { isHttps, STRICT_TRANSPORT_SECURITY } from '@/lib/security/transport';
import type { Refusal } from '@/lib/http/request-limits';
import { guardRequest } from '@/server/platform/http/request-guard';
import { siteOrigins } from '@/server/platform/http/form-post';
import {
  isEmailLinkPage,
  MANAGE_REFERRER_POLICY,
  manageLinkResponse,
} from '@/server/features/demos/proxy';
import { getEnv } from '@/server/platform/env';
import { log } from '@/server/platform/log';

/** A path with no route: Next.js answers it with the prerendered 404 page. */
const NOT_FOUND_PATH = '/_not-found';

/** `next dev` renders every page on request (and needs `eval`); it never serves the build's HTML. */
const development = process.env.NODE_ENV === 'development';

/**
 * Answers a request Next.js would fail on with 5xx, or that no route accepts, with 4xx and a page
 * in the site's layout (`guardRequest`); then sets the Content-Security-Policy (and
 * HSTS over HTTPS) on every response but hashed build files.
 * - Prerendered pages stay static: their policy lists the SHA-256 of each inline script of the HTML
 *   that `next build` wrote (from the build's CSP manifest, `prerendered-hashes.ts`), so no nonce (which would force per-request rendering) is needed.
 *   Other spellings of a product URL are served from the prerendered page they show.
 * - Anything else (pages rendered on demand such as /contact-us, route handlers, unknown paths)
 *   gets a fresh nonce, passed to Next.js in the request's CSP header so it stamps its scripts with
 *   it, plus the hashes of the static 404 page, which Next.js serves for unknown paths.
 * - The e-mailed manage link's token is exchanged for a cookie before the page renders
 *   (manageLinkResponse), and the manage and confirmation pages get the stricter Referrer-Policy.
 * The other security headers are constant and set in next.config.ts.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const https = isHttps(request);
  const env = getEnv();
  const refusal = await guardRequest(
    request,
    { actionIds: serverActionIds(), isApiRoute },
    { trust: env.TRUST_PROXY, allowedOrigins: siteOrigins(env) },
  );
  if (refusal) return refuse(request, refusal, https);
  const manageLink = manageLinkResponse(request, isHttpsSite());
  if (manageLink)
    return withHeaders(manageLink, contentSecurityPolicy({ scriptHashes: [], https }), https);
  // A form posted without JavaScript (or before the page hydrated) to a prerendered path is
  // answered with a page rendered for it, whose scripts are not the prerendered page's: a nonce.
  const readOnly = request.method === 'GET' || request.method === 'HEAD';
  const response =
    (!development && readOnly && servePrerendered(request, https)) ||
    renderWithNonce(request, https);
  return isPrivatePath(request.nextUrl.pathname) ? privately(response) : response;
}

/** The operator console and its sign-in endpoints: one person's pages, for nobody else. */
function isPrivatePath(pathname: string): boolean {
  return /^\/(admin|api\/auth)(\/|$)/.test(pathname);
}

/**
 * Never stored by a browser's or shared cache (two operators behind one edge never see each
 * other's pages), never indexed. Next.js keeps a Cache-Control set here on dynamic pages.
 */
function privately(response: NextResponse): NextResponse {
  response.headers.set('Cache-Control', 'private, no-store');
  response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return response;
}

/**
 * The refusal's status with its prerendered page, without scripts (plain text when the build has
 * none), never cached, and one `warn` line with the reason (no stack trace, no URL: it may carry personal data).
 * A refused unknown action keeps Next.js's header, which its client router reads.
 */
function refuse(request: NextRequest, { status, reason }: Refusal, https: boolean): NextResponse {
  log.warn({ event: 'request.refused', status, reason, method: request.method });
  const html = refusalPage(status);
  const response = new NextResponse(html ?? `Error ${status}`, {
    status,
    headers: {
      'Content-Type': html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    },
  });
  if (status === 405) response.headers.set('Allow', 'GET, HEAD');
  if (reason === 'unknown-action') response.headers.set('x-nextjs-action-not-found', '1');
  return withHeaders(response, contentSecurityPolicy({ scriptHashes: [], https }), https);
}

/** The response for a path served from prerendered HTML, or `null` when there is none. */
function servePrerendered(request: NextRequest, https: boolean): NextResponse | null {
  const { pathname } = request.nextUrl;
  const hashes = prerenderedScriptHashes(pathname);
  if (hashes) return staticPage(NextResponse.next(), hashes, https);

  // A file route (e.g. /products/opengraph-image) is itself, not another spelling of a module.
  const alias = hasPrerenderedOutput(pathname) ? null : productAlias(pathname);
  if (!alias) return null;
  const path = alias.kind === 'module' ? alias.path : NOT_FOUND_PATH;
  const aliasHashes =
    alias.kind === 'module' ? prerenderedScriptHashes(path) : notFoundScriptHashes();
  if (!aliasHashes) return null;
  const target = request.nextUrl.clone();
  target.pathname = path;
  return staticPage(NextResponse.rewrite(target), aliasHashes, https);
}

/** Passes a fresh nonce to Next.js (in the request's CSP header) and to the browser. */
function renderWithNonce(request: NextRequest, https: boolean): NextResponse {
  const policy = contentSecurityPolicy({
    nonce: createNonce(),
    // `next dev` writes no CSP manifest (that is `npm run build`'s step) and renders 404s itself.
    scriptHashes: development ? [] : notFoundScriptHashes(),
    https,
    development,
  });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  if (isEmailLinkPage(request)) response.headers.set('Referrer-Policy', MANAGE_REFERRER_POLICY);
  return withHeaders(response, policy, https);
}

/** Whether the site's public address (`SITE_URL`) is https, so its cookies are `Secure`. */
function isHttpsSite(): boolean {
  return getEnv().SITE_URL?.startsWith('https:') ?? false;
}

/**
 * A prerendered page: browsers and shared caches may keep it but must revalidate it (ETag, 304) on
 * each use, so a deploy is seen at once and the HTML never outlives the policy that matches it.
 */
function staticPage(response: NextResponse, hashes: string[], https: boolean): NextResponse {
  response.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
  return withHeaders(response, contentSecurityPolicy({ scriptHashes: hashes, https }), https);
}

function withHeaders(response: NextResponse, policy: string, https: boolean): NextResponse {
  response.headers.set('Content-Security-Policy', policy);
  if (https) response.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  return response;
}

export const config = {
  // Next.js internals (hashed build assets, image optimizer, dev HMR socket) need no policy.
  matcher: ['/((?!_next/).*)'],
};
