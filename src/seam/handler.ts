import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { contentSecurityPolicy } from '../lib/security/csp';
import { staticSecurityHeaders } from '../lib/security/headers';
import { isHttps, STRICT_TRANSPORT_SECURITY } from '../lib/security/transport';
import { PEER_ADDRESS_HEADER } from '../lib/http/peer-address';
import { withCompression, type CompressionOptions, type Listener } from './compression';
import { seamLog, throttledLog } from './log';
import type { DirectHandler, SeamRegistry } from './registry';

/** A `Host` header that is a valid authority: a name, an IPv4 address or a bracketed IPv6 one, and a port. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

/** Whether `host` (a request's `Host` header) is a valid authority (RFC 9110 §7.2). */
export function isValidAuthority(host: string | undefined): host is string {
  return host !== undefined && AUTHORITY.test(host) && URL.canParse(`http://${host}/`);
}

/**
 * The seam's request listener: everything that happens before Next.js's handler `next`, in order:
 * 1. the TCP peer address is stamped on the request (`PEER_ADDRESS_HEADER`, overwritten on every
 *    request, so a client cannot choose it): Next.js exposes no peer address to the proxy, route
 *    handlers and server actions;
 * 2. a direct route registered by startup (the page-view beacon) is answered here, with the headers
 *    every response of the site gets; a request for one whose `Host` is not a valid authority gets
 *    a 400 (one warn-level line a minute, with the count);
 * 3. everything else goes to Next.js through compression and the page rewrite (./compression.ts).
 */
export function createSeamHandler(
  next: Listener,
  registry: SeamRegistry,
  compression: CompressionOptions,
): Listener {
  const compressed = withCompression(next, compression);
  const badHost = throttledLog(
    'warn',
    'http.bad_host',
    'Requests for a direct route with a Host header that is not a valid authority: answered 400',
  );
  return (req, res) => {
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
    const direct = registry.directRoutes.get(req.url ?? '');
    if (!direct) return compressed(req, res);
    if (!isValidAuthority(req.headers.host)) {
      badHost();
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      return res.end('Bad Request: the Host header is not a valid authority.\n');
    }
    return answer(req, res, direct, req.headers.host);
  };
}

/**
 * Answers one request with a direct route's handler and the site's headers: the static security
 * headers, the Content-Security-Policy without any inline script, and HSTS over HTTPS. Should the
 * handler throw after all, the connection is closed without an answer (`http.direct_route_failed`).
 */
async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  handler: DirectHandler,
  host: string,
): Promise<void> {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const method = incoming.method ?? 'GET';
    const request = new Request(`http://${host}${incoming.url}`, {
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
    seamLog('error', {
      event: 'http.direct_route_failed',
      error: { type: error instanceof Error ? error.name : typeof error },
    });
    outgoing.destroy();
  }
}
