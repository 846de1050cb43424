// HTML throughput of prerendered pages through the reference edge (deploy/nginx.conf, cache warm),
// straight from one instance, and from nginx serving the same HTML files from disk, in one run
// (docs/performance.md). autocannon speaks HTTP/1.1 (over TLS to both nginx servers).
import { measureLoad } from './http-load.mjs';
import { startEdge, startStaticNginx } from './nginx-edge.mjs';

/** Prerendered routes compared. */
export const EDGE_ROUTES = ['/', '/products/0'];

/**
 * Measures each of {@link EDGE_ROUTES} three ways for `seconds` each and returns requests per
 * second with the ratios edge/instance and disk/edge.
 * @param {string} instanceUrl the running instance, e.g. `http://127.0.0.1:3130` (TRUST_PROXY=1)
 * @param {string} htmlRoot the build's prerendered HTML (`<distDir>/server/app`)
 * @param {{ seconds: number }} options
 * @throws {Error} when nginx cannot start
 */
export async function measureEdgeThroughput(instanceUrl, htmlRoot, { seconds }) {
  const edge = await startEdge([new URL(instanceUrl).host]);
  const disk = await startStaticNginx(htmlRoot);
  try {
    const rows = [];
    for (const route of EDGE_ROUTES) {
      const instance = await measureLoad(instanceUrl + route, { seconds });
      await measureLoad(edge.url + route, { seconds: 1 }); // fills the edge cache
      const viaEdge = await measureLoad(edge.url + route, { seconds });
      const fromDisk = await measureLoad(disk.url + route, { seconds });
      rows.push({
        route,
        instance: instance.requestsPerSecond,
        edge: viaEdge.requestsPerSecond,
        disk: fromDisk.requestsPerSecond,
        edgeOverInstance: viaEdge.requestsPerSecond / instance.requestsPerSecond,
        diskOverEdge: fromDisk.requestsPerSecond / viaEdge.requestsPerSecond,
        failed:
          instance.non2xx +
          instance.errors +
          viaEdge.non2xx +
          viaEdge.errors +
          fromDisk.non2xx +
          fromDisk.errors,
      });
    }
    return rows;
  } finally {
    await edge.stop();
    await disk.stop();
  }
}
