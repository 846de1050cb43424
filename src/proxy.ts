import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, createNonce } from '@/lib/security/csp';
import { notFoundScriptHashes, prerenderedScriptHashes } from '@/lib/security/prerendered-hashes';
import { productAlias } from '@/lib/security/product-alias';
import { isHttps, STRICT_TRANSPORT_SECURITY } from '@/lib/security/transport';

/** A path with no route: Next.js answers it with the prerendered 404 page. */
const NOT_FOUND_PATH = '/_not-found';

/**
 * Sets the Content-Security-Policy (and HSTS over HTTPS) on every response but hashed build files.
 * - Prerendered pages stay static: their policy lists the SHA-256 of each inline script of the HTML
 *   that `next build` wrote, so no nonce (which would force per-request rendering) is needed.
 *   Other spellings of a product URL are served from the prerendered page they show.
 * - Anything else (pages rendered on demand such as /contact-us, route handlers, unknown paths)
 *   gets a fresh nonce, passed to Next.js in the request's CSP header so it stamps its scripts with
 *   it, plus the hashes of the static 404 page, which Next.js serves for unknown paths.
 * The other security headers are constant and set in next.config.ts.
 */
export function proxy(request: NextRequest): NextResponse {
  const https = isHttps(request);
  const { pathname } = request.nextUrl;

  const hashes = prerenderedScriptHashes(pathname);
  if (hashes)
    return staticPage(
      NextResponse.next(),
      contentSecurityPolicy({ scriptHashes: hashes, https }),
      https,
    );

  const alias = productAlias(pathname);
  const aliasPath = alias && (alias.kind === 'module' ? alias.path : NOT_FOUND_PATH);
  const aliasHashes =
    aliasPath &&
    (alias?.kind === 'module' ? prerenderedScriptHashes(aliasPath) : notFoundScriptHashes());
  if (aliasPath && aliasHashes) {
    const target = request.nextUrl.clone();
    target.pathname = aliasPath;
    return staticPage(
      NextResponse.rewrite(target),
      contentSecurityPolicy({ scriptHashes: aliasHashes, https }),
      https,
    );
  }

  const policy = contentSecurityPolicy({
    nonce: createNonce(),
    scriptHashes: notFoundScriptHashes(),
    https,
  });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  return withHeaders(NextResponse.next({ request: { headers } }), policy, https);
}

/**
 * A prerendered page: browsers and shared caches may keep it but must revalidate it (ETag, 304) on
 * each use, so a deploy is seen at once and the HTML never outlives the policy that matches it.
 */
function staticPage(response: NextResponse, policy: string, https: boolean): NextResponse {
  response.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
  return withHeaders(response, policy, https);
}

function withHeaders(response: NextResponse, policy: string, https: boolean): NextResponse {
  response.headers.set('Content-Security-Policy', policy);
  if (https) response.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  return response;
}

export const config = {
  // Hashed build assets need no policy: skipping them keeps the proxy off their path.
  matcher: ['/((?!_next/static|_next/image).*)'],
};
