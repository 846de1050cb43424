// HTML throughput and latency of one URL with autocannon (loopback, fixed duration).
import autocannon from 'autocannon';

/**
 * Loads `url` for `seconds` with `connections` keep-alive connections, asking for gzip like a
 * browser. On a 2-core machine the load generator shares the CPU with the server: compare runs on
 * the same machine, not absolute numbers.
 */
export async function measureLoad(url, { seconds, connections = 10 }) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { 'accept-encoding': 'gzip', accept: 'text/html' },
  });
  return {
    url,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    throughputKiBps: result.throughput.average / 1024,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
