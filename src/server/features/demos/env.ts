import 'server-only';
import { envSlice, readEnv, type Env } from '../../platform/env';
import { getRuntime, type Runtime } from '../../platform/runtime';
import {
  BOOKING_SITE_URL_MESSAGE,
  demoEnvSchema,
  isBookingOn,
  isBookingSiteUrl,
  type DemoEnv,
} from './rules';

/**
 * Demo booking's env slice: the `DEMO_*` variables (rules.ts) and their check across variables
 * (with booking on, `SITE_URL` must be fit to carry the e-mailed manage links). The wiring
 * composes it into the site's environment.
 */
export const demoEnvSlice = envSlice(demoEnvSchema, [
  {
    ok: (env) => !isBookingOn(env) || isBookingSiteUrl(env.SITE_URL),
    message: BOOKING_SITE_URL_MESSAGE,
    path: ['SITE_URL'],
  },
]);

/** The platform's variables with the `DEMO_*` ones: what booking reads. */
export type DemoSiteEnv = Env & DemoEnv;

/**
 * The platform's and the `DEMO_*` variables parsed from `source` (default `process.env`,
 * cached).
 * @throws Error listing every invalid variable, as the site's start does.
 */
export function getDemoEnv(source: NodeJS.ProcessEnv = process.env): DemoSiteEnv {
  return readEnv([demoEnvSlice], source);
}

/** getRuntime with the `DEMO_*` variables in its environment: booking's entry to the wiring. */
export function getDemoRuntime(): Promise<Runtime<DemoSiteEnv>> {
  return getRuntime([demoEnvSlice]);
}
