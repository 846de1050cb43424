/**
 * The one process-wide registry shared by the seam (src/seam/server.ts, outside Next.js's bundle)
 * and the code inside Next.js's bundle (startup, the database, the beacon's collector). Startup
 * fills it (src/server/wiring/startup.ts); the seam reads it on every request. It lives on
 * `globalThis` under one `Symbol.for` key because the two sides are separate bundles of the same
 * process: a module-level variable would exist once per bundle.
 *
 * Every other process-wide value the server keeps on `globalThis` (the database handle, the queue
 * worker, the metrics registry, the demo feeds, the visit collector, the funnel sink) is kept
 * there for the same reason, by its own module, so that Next.js's route bundles share one copy;
 * none of those is read by the seam.
 */

/** Answers one request as a route handler does (web Request in, Response out); never throws. */
export type DirectHandler = (request: Request) => Promise<Response>;

/** What the seam and the bundle share. */
export type SeamRegistry = {
  /** Exact paths (no query string) answered by the seam before Next.js sees them. */
  readonly directRoutes: Map<string, DirectHandler>;
  /** The seam's figures, read by the metrics endpoint (src/server/platform/metrics.ts). */
  stats: SeamStats;
};

/** The seam's own figures. */
export type SeamStats = {
  /** Bytes held by the cache of compressed build files (keys and bodies). */
  staticCacheBytes(): number;
  /** Its cap (bytes). */
  staticCacheMaxBytes: number;
};

const KEY = Symbol.for('nirmaya.seam');

/** This process's registry, created on first use (by whichever side comes first). */
export function seamRegistry(): SeamRegistry {
  const holder = globalThis as typeof globalThis & { [KEY]?: SeamRegistry };
  holder[KEY] ??= {
    directRoutes: new Map(),
    stats: { staticCacheBytes: () => 0, staticCacheMaxBytes: 0 },
  };
  return holder[KEY];
}

/**
 * Answers requests for exactly `pathname` (no query string) with `handler` in the seam, before
 * Next.js sees them: its router, the proxy (src/proxy.ts) and the route module's wrapper cost
 * about three quarters of a small request's CPU (docs/performance.md). Meant for an endpoint that
 * must be cheap and whose route handler exists as well (`next dev` and tests call that one; both
 * call the same function). Registered once at start-up; registering a path again replaces it.
 */
export function serveBeforeNext(pathname: string, handler: DirectHandler): void {
  seamRegistry().directRoutes.set(pathname, handler);
}
