import 'server-only';
import type { Env } from '../env';
import type { RateLimit } from '../rate-limit';
import { clientAddress } from './client-address';
import { originFacts, type OriginFacts } from './same-site';

/** What the checks of a form post read from its request. */
export type FormPostFacts = OriginFacts & {
  /** The client's address behind TRUST_PROXY's proxies (clientAddress). */
  clientAddress: string;
};

/**
 * The facts of a form post from its request `headers`: `Origin`, the host the visitor addressed
 * (addressedHost) and the client's address (TRUST_PROXY decides which hop for both).
 */
export function formPostFacts(headers: Headers, env: Pick<Env, 'TRUST_PROXY'>): FormPostFacts {
  return {
    ...originFacts(headers, env.TRUST_PROXY),
    clientAddress: clientAddress(headers, env.TRUST_PROXY),
  };
}

/** The origins, besides the request's own host, allowed to post the site's forms: SITE_URL's. */
export function siteOrigins(env: Pick<Env, 'SITE_URL'>): string[] {
  return env.SITE_URL ? [new URL(env.SITE_URL).origin] : [];
}

/**
 * The per-client limit of each of the site's forms (enquiry, booking, privacy request), counted
 * apart: `RATE_LIMIT_MAX` posts per `RATE_LIMIT_WINDOW_MINUTES`.
 */
export function formRateLimit(
  env: Pick<Env, 'RATE_LIMIT_MAX' | 'RATE_LIMIT_WINDOW_MINUTES'>,
): RateLimit {
  return { max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000 };
}
