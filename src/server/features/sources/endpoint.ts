import 'server-only';
import { getRuntime } from '../../platform/runtime';
import { siteOrigins } from '../../platform/http/form-post';
import { readTextWithin } from '../../platform/http/read-body';
import { serveBeforeNext } from '@/seam/registry';
import { errorFacts, log } from '../../platform/log';
import { BEACON_MAX_BYTES, countBeacon, refusal, type BeaconVerdict } from './beacon';
import { sourcesEnvSlice } from './env';
import { createThrottle } from '@/lib/throttle';

/** The beacon endpoint's path (src/app/api/v/route.ts). */
export const BEACON_ROUTE = '/api/v';

/** A transparent 1×1 GIF: what the `<noscript>` image gets. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const headers = { 'Cache-Control': 'no-store' } as const;

/** At most one `sources.beacon_failed` line a minute (every beacon fails while the database is down). */
const failureLog = createThrottle(60_000);

/**
 * The beacon endpoint's answer to `request` (src/app/api/v/route.ts): a POST gets 204, a GET (the
 * `<noscript>` image) a transparent GIF, whatever happened, so it is never a 5xx nor a cookie;
 * what was counted or why not is only logged at debug level, failures as
 * `sources.beacon_failed` (at most a line a minute, with their count). `knownPaths` are the site's pages (src/content/routes.ts, passed in by
 * the route so that the feature does not load the page content): views of other paths are not
 * counted.
 */
export async function beaconResponse(
  request: Request,
  knownPaths: ReadonlySet<string>,
): Promise<Response> {
  let verdict: BeaconVerdict | 'failed' = 'malformed';
  try {
    verdict =
      refusal(request.method, request.headers) ??
      (await (async () => {
        const body =
          request.method === 'POST' ? await readTextWithin(request, BEACON_MAX_BYTES) : null;
        if (request.method === 'POST' && body === null) return 'malformed' as const;
        const { env, db } = await getRuntime([sourcesEnvSlice]);
        return countBeacon(request.method, request.headers, body, {
          db,
          trust: env.TRUST_PROXY,
          allowedOrigins: siteOrigins(env),
          timeZone: env.SITE_TIME_ZONE,
          knownPaths,
        });
      })());
  } catch (error) {
    verdict = 'failed';
    const failures = failureLog();
    if (failures !== null)
      log.error({ event: 'sources.beacon_failed', failures, error: errorFacts(error) });
  }
  log.debug({ event: 'sources.beacon', verdict });
  return request.method === 'GET'
    ? new Response(PIXEL, { headers: { ...headers, 'Content-Type': 'image/gif' } })
    : new Response(null, { status: 204, headers });
}

/**
 * Serves the beacon endpoint in this process's HTTP server before Next.js routes it
 * (serveBeforeNext, src/seam/registry.ts): the same beaconResponse as the route handler, without the framework's
 * per-request cost (docs/performance.md, "The beacon endpoint"). Called once at start-up with the
 * site's pages, as the route passes them.
 */
export function serveBeaconsBeforeNext(knownPaths: ReadonlySet<string>): void {
  serveBeforeNext(BEACON_ROUTE, (request) => beaconResponse(request, knownPaths));
}
