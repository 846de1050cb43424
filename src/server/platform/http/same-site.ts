import 'server-only';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';
import { trustFunction, type TrustProxy } from '../../../lib/http/trust-proxy';

/** The request facts the same-site check reads. */
export type OriginFacts = {
  /** The `Origin` header (null when absent). */
  origin: string | null;
  /** The host the visitor addressed (addressedHost: `X-Forwarded-Host` or `Host`). */
  host: string | null;
};

/**
 * The host the visitor addressed: `X-Forwarded-Host` when the TCP peer is a proxy `trust`
 * (TRUST_PROXY) trusts, as the edge sets it (deploy/nginx.conf), else `Host`. With no trusted
 * proxy a client could choose `X-Forwarded-Host`, so it is ignored, as `X-Forwarded-For` is by
 * clientAddress. Returns null when neither header is present.
 */
export function addressedHost(headers: Headers, trust: TrustProxy): string | null {
  const forwarded = headers.get('x-forwarded-host');
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (forwarded && peer && trustFunction(trust)(peer, 0)) return forwarded;
  return headers.get('host');
}

/** The origin facts of a request's `headers`: its `Origin` and addressedHost. */
export function originFacts(headers: Headers, trust: TrustProxy): OriginFacts {
  return { origin: headers.get('origin'), host: addressedHost(headers, trust) };
}

/**
 * Whether a form post comes from this site: `Origin` must be present and name the request's own
 * host or one of `allowedOrigins` (e.g. `SITE_URL`'s). Cross-site posts are refused. The one
 * check of the visitor forms and the console's actions.
 */
export function isSameSite(request: OriginFacts, allowedOrigins: readonly string[]): boolean {
  if (!request.origin || request.origin === 'null') return false;
  let origin: URL;
  try {
    origin = new URL(request.origin);
  } catch {
    return false;
  }
  if (request.host && origin.host === request.host) return true;
  return allowedOrigins.some((allowed) => allowed === origin.origin);
}
