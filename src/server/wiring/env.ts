import 'server-only';
import { readEnv, type Env } from '../platform/env';
import { demoEnvSlice } from '../features/demos/env';
import type { DemoEnv } from '../features/demos/rules';

/** The site's whole environment: the platform's variables and every feature's slice. */
export type SiteEnv = Env & DemoEnv;

/**
 * Parses the site's whole environment from `source` (default `process.env`, cached): the
 * platform's variables composed with each feature's slice (demos: `DEMO_*`). The server's start
 * reads it first, so a bad configuration stops it with every problem listed.
 * @throws Error listing every invalid variable (the values themselves are never echoed).
 */
export function getSiteEnv(source: NodeJS.ProcessEnv = process.env): SiteEnv {
  return readEnv([demoEnvSlice], source);
}
