import 'server-only';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { keyedHash } from '../security/keyed-hash';
import { log } from '../log';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';
import { clientKey } from '../../../lib/http/client-key';
import { trustFunction, trustsNoProxy, type TrustProxy } from '../../../lib/http/trust-proxy';

/** Whether this process has warned that proxied requests arrive while no proxy is trusted. */
let warnedUntrusted = false;

/**
 * The client's address for rate limiting behind proxies: starting from the TCP peer (recorded
 * by the seam, src/seam/handler.ts), the right-most address of `X-Forwarded-For` that `trust` does
 * not trust, computed by `proxy-addr` as Express's `req.ip` is.
 * - `trust` 0 (TRUST_PROXY unset): the TCP peer; `X-Forwarded-For` is ignored, as any client can
 *   send it.
 * - `trust` n: the address the n-th proxy from the site saw (1 behind the reference nginx); a
 *   client's forged entries lie left of it and are never reached.
 * - `trust` a list of CIDR ranges: the first hop, from the right, outside those ranges.
 * Returns `'unknown'` when the peer address is missing (no seam in front: src/seam/handler.ts).
 * With `trust` 0, the first request of the process that carries `X-Forwarded-For` logs one
 * warning: behind a proxy, every limit would count the proxy, not visitors.
 */
export function clientAddress(headers: Headers, trust: TrustProxy): string {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (!peer) return 'unknown';
  const forwardedFor = headers.get('x-forwarded-for');
  if (forwardedFor !== null && !warnedUntrusted && trustsNoProxy(trust)) {
    warnedUntrusted = true;
    log.warn(
      { event: 'http.proxied_without_trust' },
      'Requests arrive with X-Forwarded-For but TRUST_PROXY is 0: every visitor is counted as the ' +
        'proxy in the enquiry rate limit. Set TRUST_PROXY (1 behind one proxy, or its addresses).',
    );
  }
  const request = {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  } as unknown as IncomingMessage;
  return proxyaddr(request, trustFunction(trust));
}

/**
 * Keyed hash of a client address (keyedHash, purpose `client`: HMAC-SHA-256 of `client:` and the
 * address's client key, hex): stored and rate-limited instead of the IP. The address is first
 * reduced to the client it stands for (clientKey: an IPv6 address to its /64, an IPv4-mapped one
 * to its IPv4 address), so every per-client limit and cap, all keyed by this hash, counts a /64 as
 * one client. A value that is not an address (the sign-in limit's e-mail address) is hashed as given.
 */
export function hashClientAddress(address: string, secret: string): string {
  return keyedHash('client', clientKey(address), secret);
}
