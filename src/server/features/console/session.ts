import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { consoleText } from '@/content/console';
import { siteUrl } from '@/lib/seo/site-url';
import type { Db } from '../../platform/db';
import { getRuntime } from '../../platform/runtime';
import type { OperatorRole } from './schema';
import { createSmtpSender } from '../../delivery/email/transport';
import { getEnv } from '../../platform/env';
import { consoleEnvSlice, type ConsoleEnv } from './env';
import { log } from '../../platform/log';
import { isSameSite, originFacts } from '../../platform/http/same-site';
import type { TrustProxy } from '../../../lib/http/trust-proxy';
import { authFor, SIGN_IN_PATH, type ConsoleAuth } from './auth';
import type { Actor } from '../../platform/audit';
import { ensureAdmins } from './operators';

/** The signed-in operator of a request. */
export type SignedIn = Actor & { id: string };

const adminsEnsured = new WeakSet<Db>();

/**
 * The console's better-auth instance on the site's database, sending links through `SMTP_URL`
 * (none configured: the link is not sent, and a warning without the address is logged). Makes
 * sure `ADMIN_EMAILS` are admins on first use.
 */
export async function consoleAuth(): Promise<{ db: Db; env: ConsoleEnv; auth: ConsoleAuth }> {
  const { env, db } = await getRuntime([consoleEnvSlice]);
  if (!adminsEnsured.has(db)) {
    await ensureAdmins(db, env.ADMIN_EMAILS);
    adminsEnsured.add(db);
  }
  const send = env.SMTP_URL ? createSmtpSender(env.SMTP_URL) : undefined;
  const auth = await authFor({
    db,
    env,
    baseURL: siteUrl().origin,
    sendLink: async (email, url) => {
      if (!send) {
        log.warn({ event: 'console.sign_in_mail_unconfigured' });
        return;
      }
      await send({
        from: env.LEADS_FROM,
        to: email,
        subject: consoleText.mail.subject,
        text: consoleText.mail.text(url),
      });
    },
  });
  return { db, env, auth };
}

/** The operator signed in on this request, or null. */
export async function currentOperator(): Promise<SignedIn | null> {
  const { auth } = await consoleAuth();
  const session = await auth.api.getSession({ headers: await headers() });
  if (!session) return null;
  const { id, email, role } = session.user as { id: string; email: string; role?: string };
  return { id, email, role: role === 'admin' ? 'admin' : 'sales' };
}

/**
 * The signed-in operator of a console page, with at least `role`: without a session the page
 * redirects to the sign-in page; with too small a role it answers 403.
 */
export async function requirePageOperator(role: OperatorRole = 'sales'): Promise<SignedIn> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  if (role === 'admin' && operator.role !== 'admin') forbidden();
  return operator;
}

/**
 * Whether a console post comes from the site: its `Origin` names the host the operator addressed
 * (behind the edge, the forwarded host when `trust` (TRUST_PROXY) trusts the peer) or the
 * site's own origin (`SITE_URL`, by default http://localhost:3000). The visitor forms' check.
 */
export function isConsolePost(request: Headers, trust: TrustProxy): boolean {
  return isSameSite(originFacts(request, trust), [siteUrl().origin]);
}

/** The page that answers 403 to a refused action posted without JavaScript. */
export const FORBIDDEN_PATH = '/admin/forbidden';

/**
 * The signed-in operator of a console server action, with at least `role`, posted from this
 * site (its `Origin` header names the site, as a browser always sends on a form post): anything
 * else is refused before the action changes anything, with 403 (sent by JavaScript), or for a
 * form posted without JavaScript with a redirect to a page answering 403 (Next.js renders its
 * 404 page for `forbidden()` in such a post).
 */
export async function requireActionOperator(role: OperatorRole = 'sales'): Promise<SignedIn> {
  const request = await headers();
  const refuse = (): never => (request.get('next-action') ? forbidden() : redirect(FORBIDDEN_PATH));
  if (!isConsolePost(request, getEnv().TRUST_PROXY)) refuse();
  const operator = await currentOperator();
  if (!operator || (role === 'admin' && operator.role !== 'admin')) return refuse();
  return operator;
}
