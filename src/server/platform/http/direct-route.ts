import 'server-only';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { contentSecurityPolicy } from '@/lib/security/csp';
import { staticSecurityHeaders } from '@/lib/security/headers';
import { isHttps, STRICT_TRANSPORT_SECURITY } from '@/lib/security/transport';
import { errorFacts, log } from '../log';

/** Answers one request as a route handler does (web Request in, Response out); never throws. */
export type DirectHandler = (request: Request) => Promise<Response>;

type State = { routes: Map<string, DirectHandler>; servers: WeakSet<Server> };
const key = Symbol.for('nirmaya.directRoutes');

/** The process's direct routes (on `globalThis`, so every bundle of the server shares them). */
function state(): State {
  const holder = globalThis as typeof globalThis & { [key]?: State };
  if (!holder[key]) {
    const created: State = { routes: new Map(), servers: new WeakSet() };
    holder[key] = created;
    // Node publishes this before it emits the request to the server's listeners, so the first
    // request already goes through the wrapped listener.
    subscribe('http.server.request.start', (message) => {
      const { server } = message as { server: Server };
      if (!created.servers.has(server)) {
        created.servers.add(server);
        routeFirst(server, created.routes);
      }
    });
  }
  return holder[key];
}

/**
 * Answers requests for exactly `pathname` (no query string) with `handler` in every HTTP server of
 * this process, before Next.js sees them: its router, the proxy (src/proxy.ts) and the route
 * module's wrapper cost about three quarters of a small request's CPU (docs/performance.md).
 * Meant for an endpoint that must be cheap and whose route handler exists as well (`next dev` and
 * tests call that one; both call the same function). The answer gets the headers every response
 * of the site gets: the static security headers, the site's Content-Security-Policy without any
 * inline script, and HSTS over HTTPS. Registered once at start-up; registering a path again replaces its handler.
 * Should `handler` throw after all, the connection is closed without an answer (logged as
 * `http.direct_route_failed`).
 */
export function serveBeforeNext(pathname: string, handler: DirectHandler): void {
  state().routes.set(pathname, handler);
}

/** Puts the direct routes in front of `server`'s request listeners (Next.js's handler). */
function routeFirst(server: Server, routes: Map<string, DirectHandler>): void {
  const listeners = server.listeners('request') as ((...args: unknown[]) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const handler = routes.get(request.url ?? '');
    if (handler) void answer(request, response, handler);
    else for (const listener of listeners) listener.call(server, request, response);
  });
}

async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  handler: DirectHandler,
): Promise<void> {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const method = incoming.method ?? 'GET';
    const request = new Request(`http://${headers.get('host') ?? 'localhost'}${incoming.url}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD'
        ? {}
        : { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' }),
    });
    const response = await handler(request);
    for (const { key: name, value } of staticSecurityHeaders) outgoing.setHeader(name, value);
    const https = isHttps(request);
    outgoing.setHeader('Content-Security-Policy', contentSecurityPolicy({ https }));
    if (https) outgoing.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    response.headers.forEach((value, name) => outgoing.setHeader(name, value));
    outgoing.statusCode = response.status;
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
    if (body) outgoing.setHeader('Content-Length', body.byteLength);
    outgoing.end(method === 'HEAD' ? undefined : body);
  } catch (error) {
    log.error({ event: 'http.direct_route_failed', error: errorFacts(error) });
    outgoing.destroy();
  }
}
