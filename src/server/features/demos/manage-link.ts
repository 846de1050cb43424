import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { manageHandOver } from '@/content/demo-manage';
import { CONFIRM_PATH, MANAGE_COOKIE, MANAGE_PATH } from './tokens';

/**
 * The manage link's secret kept out of URLs. The e-mailed link carries the manage token in its
 * query; a bearer credential there ends up in access logs, the browser's history and, through
 * `Referer`, with every request the page makes. So the first GET of the link is answered before
 * any page renders: the token goes into an http-only cookie scoped to the manage page, and the
 * browser is sent (303) to the same address without it. The page and its posts read the token
 * from the cookie only. A mail scanner that opens the link gets the redirect and the cookie and
 * changes nothing: changes are POSTs.
 *
 * A `SameSite=Strict` cookie is not sent on a navigation that another site started, redirects
 * included: a link clicked in a webmail tab reaches the clean address without the cookie it has
 * just been given. That request (`Sec-Fetch-Site: cross-site`, no cookie) gets a page that
 * reloads itself at once (`<meta http-equiv="refresh">`, no script): the reload is started by the
 * site itself, so the cookie goes along.
 */

/** The Referrer-Policy of the manage page: other sites learn the origin at most, never the path. */
export const MANAGE_REFERRER_POLICY = 'strict-origin';

/** Longest token value taken into the cookie (a manage token is under 100 characters). */
const MAX_TOKEN_LENGTH = 256;

/** Whether `request` is for the manage page. */
export function isManagePage(request: NextRequest): boolean {
  return request.nextUrl.pathname === MANAGE_PATH;
}

/**
 * Whether `request` is for a page opened from a signed link in a visitor's e-mail (the manage
 * page, the confirmation page whose query carries its token): such a page tells other sites the
 * origin at most (MANAGE_REFERRER_POLICY).
 */
export function isEmailLinkPage(request: NextRequest): boolean {
  return isManagePage(request) || request.nextUrl.pathname === CONFIRM_PATH;
}

/**
 * What the manage page's GET is answered with before it renders: exchangeManageLink's redirect
 * when the query carries a token, the self-reload of reloadSameSite when another site's
 * navigation arrived without the cookie, else null (the page renders). `secure`: the site's
 * `SITE_URL` is https.
 */
export function manageLinkResponse(request: NextRequest, secure: boolean): NextResponse | null {
  if (!isManagePage(request) || (request.method !== 'GET' && request.method !== 'HEAD'))
    return null;
  return exchangeManageLink(request, secure) ?? reloadSameSite(request);
}

/**
 * A tiny page that reloads the manage page as a same-site navigation, for a request another site
 * started (`Sec-Fetch-Site: cross-site`) that came without MANAGE_COOKIE; null otherwise. The
 * reload is same-origin, so it never loops.
 */
function reloadSameSite(request: NextRequest): NextResponse | null {
  if (request.headers.get('sec-fetch-site') !== 'cross-site') return null;
  if (request.cookies.has(MANAGE_COOKIE)) return null;
  const target = `${MANAGE_PATH}${request.nextUrl.search}`.replace(
    /[&<>"']/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="0;url=${target}"><title>${manageHandOver.title}</title></head><body><p><a href="${target}">${manageHandOver.link}</a></p></body></html>`;
  return new NextResponse(html, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': MANAGE_REFERRER_POLICY,
    },
  });
}

/**
 * The answer to a GET or HEAD of the manage page with a `token` in its query: 303 to the same
 * path and query without `token` (Next.js writes a same-origin `Location` as a relative one),
 * never cached, setting MANAGE_COOKIE to the token: `HttpOnly`, `SameSite=Strict`, `Path=/contact-us/demo/manage`,
 * `Secure` when `secure` (the site's `SITE_URL` is https), kept for the browser session. The
 * token is not checked here: the page checks the cookie's, and a bad one shows "link not valid".
 * Null for any other request.
 */
function exchangeManageLink(request: NextRequest, secure: boolean): NextResponse | null {
  const query = new URLSearchParams(request.nextUrl.search);
  const token = query.get('token');
  if (token === null) return null;
  query.delete('token');
  const target = request.nextUrl.clone();
  target.search = query.toString();
  const response = NextResponse.redirect(target, 303);
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Referrer-Policy', MANAGE_REFERRER_POLICY);
  if (token && token.length <= MAX_TOKEN_LENGTH) {
    response.cookies.set(MANAGE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      path: MANAGE_PATH,
      secure,
    });
  }
  return response;
}
