// The entry of the standalone bundle: `npm run build` bundles this file (with esbuild, as it does the
// visit beacon) into `.next/standalone/serve/start.mjs`, and `npm start` (scripts/start.mjs), the
// container image (`node serve/start.mjs`) and the production tests all start the site through it.
// It is the one seam in front of Next.js (docs/architecture.md, "How a request is served"): our own
// `http` server whose listener (./handler.ts) stamps the peer address, answers the direct routes
// startup registered (./registry.ts), compresses and rewrites pages, and calls the request handler
// that Next.js creates with `getRequestHandlers` from `next/dist/server/lib/start-server`, the
// function Next.js's own standalone `server.js` and its public custom-server API (`next()`) call
// (listed in tests/production/framework-contract.test.ts). It keeps what that `server.js` does: PORT and
// HOSTNAME, KEEP_ALIVE_TIMEOUT, upgrades, NEXT_DIST_DIR, and the graceful drain on SIGTERM/SIGINT.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { atLoadScripts } from '../lib/page-loader';
import type { Listener } from './compression';
import { loadPrecompressed } from './compression';
import { createSeamHandler } from './handler';
import { seamLog } from './log';
import { loadLoaderManifest } from './page-rewrite';
import { seamRegistry } from './registry';
import { readSiteManifest } from './site-manifest';
import { buildFileUrls, createStaticCache, STATIC_CACHE_MAX_BYTES } from './static-cache';

/** What `getRequestHandlers` (next/dist/server/lib/start-server) resolves to, as far as it is used. */
type NextHandlers = {
  requestHandler: Listener;
  upgradeHandler: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => Promise<unknown>;
  server: { close(): Promise<void> };
};
type GetRequestHandlers = (options: {
  dir: string;
  port: number;
  hostname: string;
  isDev: false;
  minimalMode?: boolean;
  server: http.Server;
  keepAliveTimeout?: number;
}) => Promise<NextHandlers>;

/** Exit codes by signal (128 + its number), as Next.js's own server exits. */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** A non-negative integer from the environment, or undefined (as Next.js's server.js reads it). */
function integer(value: string | undefined): number | undefined {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

/**
 * Starts the site: listens at once (requests wait for Next.js's handler, as in Next.js's own
 * server), then prepares Next.js, whose start runs the site's instrumentation (startup fills the
 * seam's registry there). Exits 1 when Next.js cannot start or the port cannot be bound.
 */
async function main(): Promise<void> {
  const standalone = path.resolve(import.meta.dirname, '..');
  Object.assign(process.env, { NODE_ENV: 'production' });
  process.chdir(standalone);
  const distDir = path.join(standalone, process.env.NEXT_DIST_DIR ?? '.next');
  const manifest = readSiteManifest(distDir);
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(manifest.nextConfig);

  const hostname = process.env.HOSTNAME || '0.0.0.0';
  const port = integer(process.env.PORT) ?? 3000;
  const keepAliveTimeout = integer(process.env.KEEP_ALIVE_TIMEOUT);

  const registry = seamRegistry();
  const cache = createStaticCache(
    buildFileUrls(distDir),
    integer(process.env.STATIC_CACHE_MAX_BYTES) ?? STATIC_CACHE_MAX_BYTES,
  );
  registry.stats = { staticCacheBytes: cache.bytes, staticCacheMaxBytes: cache.maxBytes };

  /** Next.js's handlers once prepared, and the promise of them meanwhile. */
  const prepared: { handlers?: NextHandlers; ready?: Promise<NextHandlers> } = {};
  const next: Listener = async (req, res) => {
    try {
      await (prepared.handlers ?? (await prepared.ready!)).requestHandler(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end('Internal Server Error');
      seamLog('error', { event: 'http.next_failed', error: String(error) });
    }
  };
  const server = http.createServer(
    createSeamHandler(next, registry, {
      precompressed: loadPrecompressed(distDir),
      cache,
      rewritePages: true,
      atLoad: atLoadScripts(loadLoaderManifest(distDir)),
    }),
  );
  if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    (prepared.handlers ? Promise.resolve(prepared.handlers) : prepared.ready!)
      .then((prepared) => prepared.upgradeHandler(req, socket, head))
      .catch(() => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const shown = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
  // As Next.js's own server sets them once it listens: server actions forwarded between workers
  // build their URL from the origin.
  process.env.PORT = String(bound);
  process.env.__NEXT_PRIVATE_ORIGIN = `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}`;
  installDrain(server, () => prepared.handlers);

  const require = createRequire(path.join(standalone, 'server.js'));
  require('next');
  const { getRequestHandlers } = require('next/dist/server/lib/start-server') as {
    getRequestHandlers: GetRequestHandlers;
  };
  prepared.ready = getRequestHandlers({
    dir: standalone,
    port: bound,
    hostname,
    isDev: false,
    server,
    keepAliveTimeout,
  });
  prepared.handlers = await prepared.ready;
  seamLog(
    'info',
    { event: 'server.listening', port: bound, hostname },
    `Ready on ${shown}:${bound}`,
  );
}

/**
 * The graceful drain, as Next.js's own server does it: on the first SIGTERM or SIGINT, stop
 * accepting connections and finish the requests in flight, then close Next.js (which runs its
 * `after` work) and exit with 128 + the signal's number. The site's own shutdown
 * (src/server/platform/shutdown.ts) holds that exit until its queue worker and database are done.
 */
function installDrain(server: http.Server, handlers: () => NextHandlers | undefined): void {
  let draining = false;
  const drain = (signal: keyof typeof EXIT_CODES) => {
    if (draining) return;
    draining = true;
    void (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handlers()
        ?.server.close()
        .catch(() => undefined);
      process.exit(EXIT_CODES[signal]);
    })();
  };
  process.on('SIGTERM', () => drain('SIGTERM'));
  process.on('SIGINT', () => drain('SIGINT'));
}

main().catch((error: unknown) => {
  seamLog('error', { event: 'server.start_failed', error: String(error) });
  console.error(error);
  process.exit(1);
});
