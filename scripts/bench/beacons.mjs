// Page-view beacons (POST /api/v) at a fixed rate from many clients, on one instance: the cost of
// the cookieless visit counts (docs/operations.md, "Visits and sources"). Each request comes from
// its own X-Forwarded-For address (the instance trusts one proxy, TRUST_PROXY=1), so the
// per-client limit never applies and each is a new visitor (a visitor hash written per request).
import autocannon from 'autocannon';

/** Beacons per second asked for, and for how long (s). */
export const BEACON_RATE = Number(process.env.BENCH_BEACON_RATE ?? 500);
export const BEACON_SECONDS = Number(process.env.BENCH_BEACON_SECONDS ?? 10);

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PATHS = ['/', '/about-us', '/contact-us', '/products/0'];

/**
 * Sends `rate` beacons a second for `seconds` to the instance at `url` (which must run with
 * TRUST_PROXY=1), from a new client address each, and returns the rate reached, latencies and
 * every answer that was not 204 or failed.
 */
export async function measureBeacons(url, { rate = BEACON_RATE, seconds = BEACON_SECONDS } = {}) {
  let n = 0;
  const result = await autocannon({
    url: `${url}/api/v`,
    connections: 50,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest(request) {
          n++;
          const body = JSON.stringify({
            path: PATHS[n % PATHS.length],
            landingPage: '/',
            utmSource: 'bench',
            utmCampaign: `campaign-${n % 7}`,
          });
          return {
            ...request,
            body,
            headers: {
              origin: url,
              'content-type': 'text/plain;charset=UTF-8',
              'user-agent': CHROME,
              'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            },
          };
        },
      },
    ],
  });
  return {
    asked: rate,
    beaconsPerSecond: result.requests.average,
    total: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
