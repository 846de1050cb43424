import 'server-only';
import { createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { magicLink } from 'better-auth/plugins';
import { nextCookies } from 'better-auth/next-js';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { operators, operatorAccounts, operatorSessions, signInTokens } from './schema';
import type { ConsoleEnv } from './env';
import { errorFacts, log } from '../../platform/log';
import { getSiteSecret } from '../../platform/security/site-secret';
import { appendAudit } from '../../platform/audit';

/** How long a sign-in link works. */
export const SIGN_IN_LINK_SECONDS = 10 * 60;
/** A session ends after this long without use. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** A session used after this long gets its idle expiry pushed back (one write per interval). */
const SESSION_REFRESH_SECONDS = 5 * 60;

/** Where the console lives and where its sign-in page is. */
export const CONSOLE_PATH = '/admin';
export const SIGN_IN_PATH = '/admin/sign-in';

/** Sends the sign-in link `url` to `email` (the site's own SMTP). */
export type SendSignInLink = (email: string, url: string) => Promise<void>;

/** What the console's sign-in needs: the database, the environment and how to send a link. */
export type AuthDeps = { db: Db; env: ConsoleEnv; baseURL: string; sendLink: SendSignInLink };

/**
 * The names of the console's cookies: `__Host-` prefixed (Secure, path /, no domain) when the
 * site is served over https, plain otherwise (a browser refuses Secure cookies over http).
 */
function cookieNames(https: boolean) {
  const name = (suffix: string) => `${https ? '__Host-' : ''}nirmaya-console.${suffix}`;
  const attributes = { secure: https, sameSite: 'lax' as const, httpOnly: true, path: '/' };
  return {
    session_token: { name: name('session'), attributes },
    session_data: { name: name('session-data'), attributes },
    dont_remember: { name: name('dont-remember'), attributes },
    account_data: { name: name('account-data'), attributes },
  };
}

/**
 * better-auth set up for the console: operators (no sign-up) sign in by a single-use link valid
 * 10 minutes, stored hashed; sessions in the database (no cookie cache, so removing an operator or
 * signing out takes effect at once), ended after 12 hours idle; no IP address stored. Sign-in
 * attempts are limited by the caller (the site's own database-backed limiter, shared by every
 * instance), so better-auth's per-process limiter is off. The secret is derived from the site
 * secret, the same on every instance.
 */
export function createAuth({ db, baseURL, sendLink }: AuthDeps, secret: string) {
  const https = baseURL.startsWith('https://');
  return betterAuth({
    appName: 'Nirmaya console',
    baseURL,
    basePath: '/api/auth',
    secret: createHmac('sha256', secret).update('console-auth').digest('base64url'),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: operators,
        session: operatorSessions,
        account: operatorAccounts,
        verification: signInTokens,
      },
    }),
    emailAndPassword: { enabled: false },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'sales', input: false },
      },
    },
    session: {
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      cookieCache: { enabled: false },
    },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      // Its messages may quote an address: only the level reaches the log.
      log: (level) => log[level]({ event: 'console.auth', level }),
    },
    advanced: {
      useSecureCookies: false,
      cookies: cookieNames(https),
      ipAddress: { disableIpTracking: true },
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      session: {
        create: {
          after: async (session) => {
            const [operator] = await db
              .select({ email: operators.email })
              .from(operators)
              .where(eq(operators.id, session.userId));
            if (operator) await appendAudit(db, operator.email, 'sign-in');
          },
        },
      },
    },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_SECONDS,
        disableSignUp: true,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, url }) => {
          try {
            await sendLink(email, url);
          } catch (error) {
            // The operator sees the same answer; the failure (without the address) is logged.
            log.error({ event: 'console.sign_in_mail_failed', error: errorFacts(error) });
          }
        },
      }),
      nextCookies(),
    ],
  });
}

/** The console's better-auth instance. */
export type ConsoleAuth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Db, Promise<ConsoleAuth>>();

/** The auth instance for `deps.db` (one per database handle, made on first use). */
export function authFor(deps: AuthDeps): Promise<ConsoleAuth> {
  let auth = instances.get(deps.db);
  if (!auth) {
    auth = getSiteSecret(deps.db, deps.env.FORM_SECRET).then((secret) => createAuth(deps, secret));
    auth.catch(() => instances.delete(deps.db));
    instances.set(deps.db, auth);
  }
  return auth;
}
