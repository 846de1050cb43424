import 'server-only';
import { getEnv, type Env } from '../env';
import { errorFacts, log } from '../log';
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

/** What a visitor form's handler is given by visitorFormAction. */
export type VisitorPost = {
  /** The request's origin, addressed host and client address (formPostFacts). */
  request: FormPostFacts;
  env: Env;
  /** The form's per-client limit (formRateLimit). */
  rateLimit: RateLimit;
  /** The origins allowed besides the request's own host (siteOrigins). */
  allowedOrigins: string[];
};

/**
 * The one wrapper of the visitor forms' server actions (enquiry, booking, privacy request): reads
 * the request's facts and the site's form settings, runs `handle` (which checks the origin, the
 * schema and the limit in its own order, as its tests pin), and turns any error (the database
 * down, a bad configuration) into the form's `unavailable` answer, logged at error level as
 * `spec.failed`. Never throws.
 */
export async function visitorFormAction<State>(
  headers: Headers,
  spec: { failed: string; unavailable: () => State },
  handle: (post: VisitorPost) => Promise<State>,
): Promise<State> {
  try {
    const env = getEnv();
    return await handle({
      request: formPostFacts(headers, env),
      env,
      rateLimit: formRateLimit(env),
      allowedOrigins: siteOrigins(env),
    });
  } catch (error) {
    log.error({ event: spec.failed, error: errorFacts(error) });
    return spec.unavailable();
  }
}
