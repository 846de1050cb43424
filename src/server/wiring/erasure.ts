import 'server-only';
import type { Db } from '../platform/db';
import { appendAudit, type Actor } from '../platform/audit';
import { findOperator } from '../features/console';
import { getSiteEnv, type SiteEnv } from './env';
import { getSiteSecret } from '../platform/security/site-secret';
import { enquiryAddressOf } from '../features/contact';
import { eraseAddress, type ErasureDeps, type ErasureResult } from '../features/privacy';
import { personalDataOf } from './personal-data';

/**
 * The operator's erasure with the site's configuration, for the console and `leads erase` (which
 * loads no page or e-mail template: only what erasing needs).
 */

/** The erasure's settings from the configuration, with the site secret of `db`. */
export async function erasureDeps(db: Db, env: SiteEnv = getSiteEnv()): Promise<ErasureDeps> {
  return {
    secret: await getSiteSecret(db, env.FORM_SECRET),
    webhookUrls: env.WEBHOOK_URLS,
    holders: personalDataOf(env),
  };
}

/**
 * An operator's erasure of everything held for `email` (DPDP Act s.12, asked by other means than
 * the form), as `actor` (`cli`, or the admin in the console): the same eraseAddress as a visitor's
 * request, recorded as a request of its own (its reference returned) and audited. No e-mail is
 * sent: the operator answers the person who asked. Waits up to `waitMs` (default 60 s) for the
 * cancellations of live demos, which the running site's queue worker sends.
 * @throws on database errors (nothing is then erased).
 */
export async function eraseAs(
  db: Db,
  actor: Actor,
  email: string,
  options: { waitMs?: number; now?: number } = {},
): Promise<ErasureResult> {
  return eraseAddress(db, await erasureDeps(db), { email, kind: 'erase', actor }, options);
}

/**
 * eraseAs for the person who made the enquiry `reference` (the console's "Erase this person's
 * data"): everything held for its address is erased, not just this enquiry. `not-found` when no
 * enquiry has that reference; `operator` (nothing erased, refused and audited) when its address
 * is an operator's: anyone may type an operator's address into a form, and erasing it would
 * suppress the address the operator signs in with, on a stranger's word.
 * @throws on database errors (nothing is then erased).
 */
export async function erasePersonOf(
  db: Db,
  actor: Actor,
  reference: string,
  options: { waitMs?: number; now?: number } = {},
): Promise<ErasureResult | { outcome: 'not-found' | 'operator' }> {
  const email = await enquiryAddressOf(db, reference);
  if (!email) return { outcome: 'not-found' };
  if (await findOperator(db, email)) {
    await appendAudit(db, actor, 'refused', reference, "erase: the address is an operator's");
    return { outcome: 'operator' };
  }
  return eraseAs(db, actor, email, options);
}
