import 'server-only';
import { z } from 'zod';
import { isSecureSiteUrl } from '@/lib/seo/site-url';
import { envSlice, readEnv, type Env } from '../../platform/env';
import { positiveInt } from '../../platform/env-values';

/** The console's variables (documented in docs/configuration.md), with their defaults. */
const consoleEnvSchema = z.object({
  /**
   * Operators with the `admin` role, created (or raised to admin) at start: comma-separated
   * e-mail addresses, compared in lower case. Others are added in the console or the CLI.
   */
  ADMIN_EMAILS: z.preprocess(
    (value) =>
      typeof value === 'string'
        ? [
            ...new Set(
              value
                .split(',')
                .map((email) => email.trim().toLowerCase())
                .filter(Boolean),
            ),
          ]
        : [],
    z.array(z.email('each ADMIN_EMAILS entry must be an e-mail address')),
  ),
  /**
   * Hour (UTC, 0-23) of the daily e-mail to admins when spam waits for review; `off`: none.
   * Default 3 (08:30 in India).
   */
  SPAM_DIGEST_HOUR: z.preprocess(
    (value) => (value === '' || value === undefined ? 3 : value === 'off' ? null : value),
    z.coerce.number().int().min(0).max(23).nullable(),
  ),
  /** Sign-in requests allowed per client address and per e-mail address in 15 minutes. */
  SIGN_IN_MAX: positiveInt(5),
});

/**
 * The console's env slice: its admins, the hour of its spam digest and its sign-in limit, and
 * the rule that admins need an https `SITE_URL` (isSecureSiteUrl) for their sign-in links. The
 * wiring composes it into the site's environment.
 */
export const consoleEnvSlice = envSlice(consoleEnvSchema, [
  {
    ok: (env) => env.ADMIN_EMAILS.length === 0 || isSecureSiteUrl(env.SITE_URL),
    message:
      'SITE_URL must be set to the https: address of the site when ADMIN_EMAILS is set: the e-mailed sign-in links point there (http: is accepted only for localhost, 127.0.0.1 and [::1]).',
    path: ['SITE_URL'],
  },
]);

/** The platform's variables with the console's: what the console reads. */
export type ConsoleEnv = Env & z.infer<typeof consoleEnvSchema>;

/**
 * The platform's and the console's variables parsed from `source` (default `process.env`,
 * cached).
 * @throws Error listing every invalid variable, as the site's start does.
 */
export function getConsoleEnv(source: NodeJS.ProcessEnv = process.env): ConsoleEnv {
  return readEnv([consoleEnvSlice], source);
}
