/**
 * Request header carrying the TCP peer address into the proxy, route handlers and server actions,
 * which Next.js does not expose otherwise (`NextRequest.ip` is gone, and Next.js fills
 * `X-Forwarded-For` with the peer only when the client sent none). The seam (src/seam/handler.ts)
 * overwrites it on every request, so a client cannot choose it.
 */
export const PEER_ADDRESS_HEADER = 'x-nirmaya-peer-address';
