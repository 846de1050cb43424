import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import type { ConsoleEnv } from './env';
import { appendAudit, type AuditAction } from '../../platform/audit';
import { isFreshSignIn, SIGN_IN_PATH, type ConsoleAuth } from './auth';
import type { OperatorRole } from './schema';
import { consoleAuth, requireActionOperator, type SignedIn } from './session';
import { clientAddress } from '../../platform/http/client-address';
import { requestFreshSignIn } from './sign-in';
import { dropPendingAct, PENDING_FIELD } from './pending-act';

/**
 * The one wrapper of the console's server actions, as saas-starter's `validatedActionWithUser`:
 * each action is posted by a plain form (no JavaScript needed) with a bound `null` before the form
 * (the shape the request guard accepts). The wrapper checks the form's origin, the session and the
 * role on the server (403 and nothing changed otherwise; a signed-in operator's refusal is
 * audited), asks for a sign-in under 15 minutes old for dangerous acts, reads the form through a
 * zod schema, writes the audit row of an act no command records, runs the action and redirects
 * where it says (POST, then GET).
 */

/** What a console action runs with: the signed-in operator and the site's wiring. */
export type ConsoleContext = { operator: SignedIn; db: Db; env: ConsoleEnv; auth: ConsoleAuth };

/** A form's fields, each with all its values as text (a form may repeat a name). */
export type FormFields = Record<string, string[] | undefined>;

/** A field's first value, trimmed; empty when absent (a form's plain text field). */
export const text = z
  .array(z.string())
  .optional()
  .transform((values) => (values?.[0] ?? '').trim());

/** A field's values, the empty ones dropped, at most `max` of them (ticked check boxes). */
export const texts = (max: number) =>
  z
    .array(z.string())
    .optional()
    .transform((values) => (values ?? []).filter(Boolean).slice(0, max));

/** `path` with `?notice=` (or `&notice=`): `path` is one of the console's own, never the form's. */
export function withNotice(path: string, notice: string): string {
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}notice=${encodeURIComponent(notice)}`;
}

/** What one console action declares besides what it runs. */
export type ConsoleActionSpec<S extends z.ZodType<unknown, FormFields>> = {
  /** The least role allowed (default `sales`). */
  role?: OperatorRole;
  /** Reads the form's fields into the action's input. */
  schema: S;
  /** Where a form the schema refuses goes back to (with its own notice); default: refused. */
  invalid?: (fields: FormFields) => string;
  /** The audit row of an act the command does not record itself, appended before it runs. */
  audit?: AuditAction;
  /** What the act is, for the audit row of a refusal (default `console action`). */
  act?: string;
  /**
   * A dangerous act (operators, roles, erasure, bulk closes): it needs a sign-in under
   * FRESH_SIGN_IN_SECONDS old. Otherwise the posted form is kept server-side as the operator's
   * pending act (`act` names it), a new link is e-mailed to them, and it brings them back to
   * confirm that act: nothing of the act travels in a URL.
   */
  fresh?: true;
};

/**
 * Wraps `run` as a console server action: requireActionOperator(`spec.role`), the form through
 * `spec.schema` (refused: redirect to `spec.invalid`'s URL), with `spec.fresh` a recent sign-in
 * (else the act is kept pending, a link mailed, and the sign-in page says so: requestFreshSignIn),
 * the audit row of `spec.audit`, then
 * `run`, and a redirect to the URL it returns. Never returns (a redirect or a refusal).
 */
export function consoleAction<S extends z.ZodType<unknown, FormFields>>(
  spec: ConsoleActionSpec<S>,
  run: (input: z.output<S>, context: ConsoleContext) => Promise<string>,
): (bound: null, form: FormData) => Promise<never> {
  return async (_bound, form) => {
    const operator = await requireActionOperator(spec.role, spec.act);
    const fields = formFields(form);
    const parsed = spec.schema.safeParse(fields);
    if (!parsed.success)
      redirect(spec.invalid ? spec.invalid(fields) : withNotice('/admin', 'invalid'));
    const { db, env, auth } = await consoleAuth();
    if (spec.fresh && !isFreshSignIn(operator)) {
      const client = clientAddress(await headers(), env.TRUST_PROXY);
      const act = spec.act ?? 'console action';
      const answer = await requestFreshSignIn({ db, env }, operator, act, fields, client);
      redirect(`${SIGN_IN_PATH}?fresh=${answer === 'sent' ? 'sent' : 'limited'}`);
    }
    if (spec.audit) await appendAudit(db, operator, spec.audit);
    const next = await run(parsed.data, { operator, db, env, auth });
    // Confirmed from its pending act's page: that act is done, and its page shows it no more.
    if (spec.fresh) await dropPendingAct(db, fields[PENDING_FIELD]?.[0], operator.id);
    redirect(next);
  };
}

/** Every field of `form` with all its values as text. */
function formFields(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const name of new Set(form.keys())) fields[name] = form.getAll(name).map(String);
  return fields;
}
