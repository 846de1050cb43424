import proxyaddr from 'proxy-addr';
import { z } from 'zod';

/**
 * Which proxies in front of the site are trusted to say who the client is (docs/deployment.md), as
 * Express's `trust proxy`: a hop count (0: none, the TCP peer is the client; 1: one proxy such as
 * the reference nginx), or the addresses and CIDR ranges of the proxies (`proxy-addr` syntax,
 * including the names `loopback`, `linklocal` and `uniquelocal`).
 */
export type TrustProxy = number | string[];

/**
 * The `TRUST_PROXY` variable: empty, `0` or `false` -> 0; `true` -> 1; a number of hops (0 to 10);
 * or a comma-separated list of addresses/CIDR ranges, each checked by `proxy-addr`.
 */
export const trustProxySchema = z.preprocess(
  (value) =>
    value === '' || value === undefined || value === 'false' ? 0 : value === 'true' ? 1 : value,
  z.union([
    z.coerce.number().int().min(0).max(10),
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((list) => list.length > 0 && compiles(list), {
        message: 'TRUST_PROXY must be a hop count or a list of addresses/CIDR ranges.',
      }),
  ]),
);

/** Whether `proxy-addr` accepts every entry; a bare number is a hop count out of range, not an address. */
function compiles(list: string[]): boolean {
  if (list.some((entry) => /^\d+$/.test(entry))) return false;
  try {
    proxyaddr.compile(list);
    return true;
  } catch {
    return false;
  }
}

/** Whether `trust` trusts no proxy at all (the default): `X-Forwarded-For` is then ignored. */
export const trustsNoProxy = (trust: TrustProxy): boolean =>
  typeof trust === 'number' ? trust === 0 : trust.length === 0;

/**
 * The `proxy-addr` trust function of a setting: for a hop count n, the n addresses nearest the
 * server (the TCP peer first) are trusted; for a list, the addresses it matches.
 * @throws TypeError for an invalid address or range (the environment schema refuses those first).
 */
export function trustFunction(trust: TrustProxy): (address: string, hop: number) => boolean {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : proxyaddr.compile(trust);
}
