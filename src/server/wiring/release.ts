import 'server-only';
import type { ReleaseTargets } from '../features/contact';
import { announceReleased, bookingSettings, isBookingOn } from '../features/demos';
import type { DemoEnv } from '../features/demos';
import type { Env } from '../platform/env';

/**
 * What releasing a quarantined enquiry sets off with the site's environment `env`: its e-mail and
 * `WEBHOOK_URLS` deliveries (contact), and, with booking on, the announcement of the demo booking
 * it made while it waited (demos' announceReleased), in the release's transaction. The console
 * and the `leads` CLI release through this, so contact never reaches into demos.
 */
export function releaseTargets(env: Env & DemoEnv): ReleaseTargets {
  return {
    webhookUrls: env.WEBHOOK_URLS,
    ...(isBookingOn(env) && {
      onReleased: (tx, leadId, now) =>
        announceReleased(tx, bookingSettings(env), leadId, now.getTime()),
    }),
  };
}
