import 'server-only';
import { setFunnelSink } from '../platform/funnel';
import { funnelCounter } from '../features/sources';
import type { SiteEnv } from './env';

/**
 * Connects the funnel's steps (an enquiry stored, a demo booked, moved or cancelled: recorded by
 * contact and demos through platform/funnel.ts) to the sources' daily counts, in the site's time
 * zone. Called by the server's start and by the `leads` CLI, so every way to book or cancel counts.
 */
export function installFunnelCounting(env: Pick<SiteEnv, 'SITE_TIME_ZONE'>): void {
  setFunnelSink(funnelCounter(env.SITE_TIME_ZONE));
}
