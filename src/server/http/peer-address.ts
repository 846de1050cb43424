import 'server-only';
import http from 'node:http';

/**
 * Request header carrying the TCP peer address into route handlers and server actions, which
 * Next.js does not expose otherwise (`NextRequest.ip` is gone; `X-Forwarded-For` is set by the
 * client or a proxy). Overwritten on every request, so a client cannot choose it.
 */
export const PEER_ADDRESS_HEADER = 'x-nirmaya-peer-address';

const installed = Symbol.for('nirmaya.peerAddressHeader');

/**
 * Makes every Node.js HTTP server in this process stamp `PEER_ADDRESS_HEADER` on incoming
 * requests before its handlers run. Called once from `instrumentation.ts`; idempotent.
 */
export function installPeerAddressHeader(): void {
  const proto = http.Server.prototype as http.Server & { [installed]?: true };
  if (proto[installed]) return;
  const emit = proto.emit as (
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) => boolean;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    }
    return emit.call(this, event, ...args);
  } as typeof proto.emit;
  proto[installed] = true;
}
