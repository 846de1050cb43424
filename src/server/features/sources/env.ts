import 'server-only';
import { z } from 'zod';
import { isTimeZone } from '@/lib/demo/display';
import { envSlice, readEnv, type Env } from '../../platform/env';
import { positiveInt, textOr } from '../../platform/env-values';

/** The visit counts' variables (documented in docs/configuration.md), with their defaults. */
const sourcesEnvSchema = z.object({
  /** The IANA zone whose calendar days the counts are kept by (and the daily salt rotates at). */
  SITE_TIME_ZONE: textOr(
    'Asia/Kolkata',
    z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata'),
  ),
  /** Months the daily counts and funnel figures are kept (purged by the daily purge). */
  SOURCES_RETENTION_MONTHS: positiveInt(25),
});

/** The sources' env slice: the site's time zone and how long the counts are kept. */
export const sourcesEnvSlice = envSlice(sourcesEnvSchema);

/** The platform's variables with the sources' own. */
export type SourcesEnv = Env & z.infer<typeof sourcesEnvSchema>;

/**
 * The platform's and the sources' variables parsed from `source` (default `process.env`, cached).
 * @throws Error listing every invalid variable.
 */
export function getSourcesEnv(source: NodeJS.ProcessEnv = process.env): SourcesEnv {
  return readEnv([sourcesEnvSlice], source);
}
