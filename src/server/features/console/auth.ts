import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { magicLink } from 'better-auth/plugins';
import { nextCookies } from 'better-auth/next-js';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { operators, operatorAccounts, operatorSessions, signInTokens } from './schema';
import type { ConsoleEnv } from './env';
import { log } from '../../platform/log';
import { getSiteSecret } from '../../platform/security/site-secret';
import { appendAudit } from '../../platform/audit';

/** How long a sign-in link works. */
export const SIGN_IN_LINK_SECONDS = 10 * 60;
/** A session ends after this long without use. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** A session ends this long after its sign-in, however much it is used (checked in session.ts). */
export const SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;
/** Dangerous acts (operators, roles, erasure) need a sign-in younger than this. */
export const FRESH_SIGN_IN_SECONDS = 15 * 60;
/** A session used after this long gets its idle expiry pushed back (one write per interval). */
const SESSION_REFRESH_SECONDS = 5 * 60;

/** Where the console lives and where its sign-in page is. */
export const CONSOLE_PATH = '/admin';
export const SIGN_IN_PATH = '/admin/sign-in';
/** The page a sign-in link opens: it shows a button whose POST signs in. */
export const SIGN_IN_CONFIRM_PATH = '/admin/sign-in/confirm';
/** better-auth's verify endpoint: reachable by POST only (src/app/api/auth). */
export const SIGN_IN_VERIFY_PATH = '/api/auth/magic-link/verify';

/** What the console's sign-in needs: the database, the environment and the site's origin. */
export type AuthDeps = { db: Db; env: ConsoleEnv; baseURL: string };

/** Where better-auth hands the token it made (set only around makeSignInToken's call). */
const tokenSink = new AsyncLocalStorage<(token: string) => void>();

/**
 * The names of the console's cookies: `__Host-` prefixed (Secure, path /, no domain) when the
 * site is served over https, plain otherwise (a browser refuses Secure cookies over http).
 */
function cookieNames(https: boolean) {
  const name = (suffix: string) => `${https ? '__Host-' : ''}nirmaya-console.${suffix}`;
  // Strict: a request another site starts (a link, a form, an image) carries no session, so it
  // can neither act nor read as an operator, nor have a read written to the audit log.
  const attributes = { secure: https, sameSite: 'strict' as const, httpOnly: true, path: '/' };
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
export function createAuth({ db, baseURL }: AuthDeps, secret: string) {
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
        // Nothing is sent from here: the queued job that asked for the token mails the link.
        sendMagicLink: async ({ token }) => {
          const sink = tokenSink.getStore();
          if (!sink) throw new Error('sign-in tokens are made by makeSignInToken only');
          sink(token);
        },
      }),
      nextCookies(),
    ],
  });
}

/** The console's better-auth instance. */
export type ConsoleAuth = ReturnType<typeof createAuth>;

/**
 * Makes a fresh single-use sign-in token for the operator `email` through better-auth (stored
 * hashed, valid SIGN_IN_LINK_SECONDS) and returns it; nothing is sent. Called by the sign-in
 * job when it runs, so no live token ever waits in the queue.
 */
export async function makeSignInToken(auth: ConsoleAuth, email: string): Promise<string> {
  let made: string | undefined;
  await tokenSink.run(
    (token) => {
      made = token;
    },
    () => auth.api.signInMagicLink({ body: { email }, headers: new Headers() }),
  );
  if (!made) throw new Error('better-auth made no sign-in token');
  return made;
}

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

/** The operator of a session: who, with which role, and when they signed in. */
export type SessionOperator = {
  id: string;
  email: string;
  role: 'sales' | 'admin';
  /** When this session's sign-in happened (its start). */
  signedInAt: Date;
};

/**
 * The operator whose session cookie `headers` carry, or null. better-auth ends a session idle
 * for SESSION_IDLE_SECONDS; this also ends (deletes) one signed in SESSION_MAX_SECONDS ago or
 * more at `now`, however often it was used.
 */
export async function sessionOperator(
  auth: ConsoleAuth,
  db: Db,
  headers: Headers,
  now = new Date(),
): Promise<SessionOperator | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  const signedInAt = new Date(found.session.createdAt);
  if (now.getTime() - signedInAt.getTime() >= SESSION_MAX_SECONDS * 1000) {
    await db.delete(operatorSessions).where(eq(operatorSessions.id, found.session.id));
    return null;
  }
  const { id, email, role } = found.user as { id: string; email: string; role?: string };
  return { id, email, role: role === 'admin' ? 'admin' : 'sales', signedInAt };
}

/** Whether `operator` signed in less than FRESH_SIGN_IN_SECONDS before `now`. */
export function isFreshSignIn(operator: SessionOperator, now = new Date()): boolean {
  return now.getTime() - operator.signedInAt.getTime() < FRESH_SIGN_IN_SECONDS * 1000;
}
