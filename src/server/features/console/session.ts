import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { siteUrl } from '@/lib/seo/site-url';
import type { Db } from '../../platform/db';
import { getRuntime } from '../../platform/runtime';
import type { OperatorRole } from './schema';
import { getEnv } from '../../platform/env';
import { consoleEnvSlice, type ConsoleEnv } from './env';
import { isSameSite, originFacts } from '../../platform/http/same-site';
import type { TrustProxy } from '../../../lib/http/trust-proxy';
import { authFor, sessionOperator, SIGN_IN_PATH, type ConsoleAuth } from './auth';
import { appendAudit, type Actor } from '../../platform/audit';
import { ensureAdmins } from './operators';

/** The signed-in operator of a request, and when they signed in. */
export type SignedIn = Actor & { id: string; signedInAt: Date };

const adminsEnsured = new WeakSet<Db>();

/**
 * The console's better-auth instance on the site's database (its links are sent by the
 * `console.sign-in` job). Makes sure `ADMIN_EMAILS` are admins on first use.
 */
export async function consoleAuth(): Promise<{ db: Db; env: ConsoleEnv; auth: ConsoleAuth }> {
  const { env, db } = await getRuntime([consoleEnvSlice]);
  if (!adminsEnsured.has(db)) {
    await ensureAdmins(db, env.ADMIN_EMAILS);
    adminsEnsured.add(db);
  }
  const auth = await authFor({ db, env, baseURL: siteUrl().origin });
  return { db, env, auth };
}

/**
 * The operator signed in on this request, or null: none for a request another site started
 * (`Sec-Fetch-Site: cross-site`, besides the Strict cookie), nor after the session's 7 days.
 */
export async function currentOperator(): Promise<SignedIn | null> {
  const request = await headers();
  if (request.get('sec-fetch-site') === 'cross-site') return null;
  const { auth, db } = await consoleAuth();
  return sessionOperator(auth, db, request);
}

/**
 * The signed-in operator of a console page, with at least `role`: without a session (or for a
 * request another site started) the page redirects to the sign-in page, before anything is read
 * or audited; with too small a role it answers 403.
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
 * The signed-in operator of a console server action, with at least `role` (a signed-in
 * operator's refusal is audited as `refused` with `act`, what was asked), posted from this
 * site (its `Origin` header names the site, as a browser always sends on a form post): anything
 * else is refused before the action changes anything, with 403 (sent by JavaScript), or for a
 * form posted without JavaScript with a redirect to a page answering 403 (Next.js renders its
 * 404 page for `forbidden()` in such a post).
 */
export async function requireActionOperator(
  role: OperatorRole = 'sales',
  act = 'console action',
): Promise<SignedIn> {
  const request = await headers();
  const refuse = (): never => (request.get('next-action') ? forbidden() : redirect(FORBIDDEN_PATH));
  if (!isConsolePost(request, getEnv().TRUST_PROXY)) refuse();
  const operator = await currentOperator();
  if (!operator) return refuse();
  if (role === 'admin' && operator.role !== 'admin') {
    // A signed-in operator's refused act is recorded (a cross-site post never gets this far).
    const { db } = await consoleAuth();
    await appendAudit(db, operator, 'refused', act, `needs ${role}`);
    return refuse();
  }
  return operator;
}
