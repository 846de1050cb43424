import 'server-only';
import { createHmac } from 'node:crypto';
import { PEER_ADDRESS_HEADER } from './peer-address';

/**
 * The client's address for rate limiting.
 * - `trustedProxies` = 0 (TRUST_PROXY unset): the TCP peer, as recorded by `installPeerAddressHeader`;
 *   `X-Forwarded-For` is ignored because any client can send it.
 * - `trustedProxies` = n > 0: the n-th address from the right of `X-Forwarded-For` (the one the
 *   outermost trusted proxy saw), e.g. 1 for a single nginx in front of the site.
 * Returns `'unknown'` when no address is available.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    const address = hops[hops.length - trustedProxies] ?? hops[0];
    if (address) return address;
  }
  return headers.get(PEER_ADDRESS_HEADER) || 'unknown';
}

/** Salted hash of a client address (HMAC-SHA-256, hex): stored and rate-limited instead of the IP. */
export function hashClientAddress(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`client:${address}`).digest('hex');
}
