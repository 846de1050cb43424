import { canonicalPaths } from '@/content/routes';
import { beaconResponse } from '@/server/features/sources';

export const dynamic = 'force-dynamic';

/** The site's pages: only their views are counted. */
const knownPaths: ReadonlySet<string> = new Set(canonicalPaths);

/**
 * The cookieless page-view beacon (docs/operations.md, "Visits and sources"): POST from
 * src/lib/visit-beacon.ts (run by the loader after the page has loaded), at most 1 KB, same-site only;
 * answers 204 whatever happened, never a 5xx and never a cookie. The running server answers
 * `/api/v` with the same beaconResponse before Next.js routes it (serveBeaconsBeforeNext, at
 * start-up); this handler answers the rest (a query string, a server without the start hook).
 */
export function POST(request: Request): Promise<Response> {
  return beaconResponse(request, knownPaths);
}

/** The `<noscript>` image of a page seen without JavaScript: a transparent GIF, never cached. */
export function GET(request: Request): Promise<Response> {
  return beaconResponse(request, knownPaths);
}

/** HEAD is never counted (and Next.js would otherwise answer it with GET's handler). */
export function HEAD(): Response {
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}
