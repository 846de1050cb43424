import 'server-only';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { getEnv } from '../env';
import { log } from '../log';
import { trustsNoProxy, type TrustProxy } from '../../../lib/http/trust-proxy';

/**
 * Request header carrying the TCP peer address into the proxy, route handlers and server actions,
 * which Next.js does not expose otherwise (`NextRequest.ip` is gone, and Next.js fills
 * `X-Forwarded-For` with the peer only when the client sent none). Overwritten on every request,
 * so a client cannot choose it.
 */
export const PEER_ADDRESS_HEADER = 'x-nirmaya-peer-address';

const installed = Symbol.for('nirmaya.peerAddressHeader');

/**
 * Stamps `PEER_ADDRESS_HEADER` on every request any HTTP server of this process receives, before
 * its handlers run, through Node's public `http.server.request.start` diagnostics channel (no
 * patching of Node internals). With `trust` 0, the first request that carries
 * `X-Forwarded-For` logs one warning: behind a proxy, the rate limit would count the proxy, not
 * visitors. Called once at start-up (`startServer`); idempotent. `trust` defaults to TRUST_PROXY.
 */
export function installPeerAddressHeader(trust: TrustProxy = getEnv().TRUST_PROXY): void {
  const state = globalThis as typeof globalThis & { [installed]?: true };
  if (state[installed]) return;
  state[installed] = true;
  let warned = !trustsNoProxy(trust);
  subscribe('http.server.request.start', (message) => {
    const request = (message as { request: IncomingMessage }).request;
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    if (!warned && request.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      log.warn(
        { event: 'http.proxied_without_trust' },
        'Requests arrive with X-Forwarded-For but TRUST_PROXY is 0: every visitor is counted as the ' +
          'proxy in the enquiry rate limit. Set TRUST_PROXY (1 behind one proxy, or its addresses).',
      );
    }
  });
}
