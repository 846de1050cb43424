import 'server-only';
import { readEnv, type Env, type EnvSlice } from '../platform/env';
import { consoleEnvSlice, type ConsoleEnv } from '../features/console';
import { demoEnvSlice } from '../features/demos';
import type { DemoEnv } from '../features/demos';
import { sourcesEnvSlice, type SourcesEnv } from '../features/sources';

/** The site's whole environment: the platform's variables and every feature's slice. */
export type SiteEnv = Env & DemoEnv & ConsoleEnv & SourcesEnv;

/**
 * Parses the site's whole environment from `source` (default `process.env`, cached): the
 * platform's variables composed with each feature's slice (demos: `DEMO_*`; the console: its
 * admins, spam digest and sign-in limit; the sources: the site's time zone and the counts'
 * retention). The server's start reads it first, so a bad
 * configuration stops it with every problem listed.
 * @throws Error listing every invalid variable (the values themselves are never echoed).
 */
export function getSiteEnv(source: NodeJS.ProcessEnv = process.env): SiteEnv {
  // Each slice's checks read its own variables, which the composed schema parses too.
  const slices = [demoEnvSlice, consoleEnvSlice, sourcesEnvSlice] as unknown as EnvSlice<
    DemoEnv & ConsoleEnv & SourcesEnv
  >[];
  return readEnv(slices, source);
}
