'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { SIGN_IN_PATH } from '@/server/features/console/auth';
import { appendAudit } from '@/server/platform/audit';
import {
  cancelDemoAs,
  releaseEnquiries,
  rescheduleDemoAs,
} from '@/server/features/console/commands';
import { acknowledgeDeliveries, retryDeliveries } from '@/server/wiring/delivery-retry';
import {
  addOperator,
  changeOperatorRole,
  findOperator,
  removeOperator,
} from '@/server/features/console/operators';
import { consoleAuth, requireActionOperator } from '@/server/features/console/session';
import { requestSignIn } from '@/server/features/console/sign-in';
import type { OperatorRole } from '@/server/features/console/schema';
import { bookingSettings } from '@/server/features/demos/rules';
import { assignPrivacyRequest, replyToPrivacyRequest } from '@/server/features/privacy/requests';
import { clientAddress } from '@/server/platform/http/client-address';
import { nudgeQueueWorker } from '@/server/delivery/queue/runtime';
import { erasePersonOf } from '@/server/wiring/erasure';

/**
 * The console's server actions. Each is posted by a plain form (no JavaScript needed), takes a
 * bound `null` before the form (the shape the request guard accepts), checks the session, the
 * role and the form's origin on the server (403 and nothing changed otherwise), calls the same
 * audited command as the `leads` CLI, and redirects back with a notice (POST, then GET).
 */

const field = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** Back to `path` with `?notice=`: `path` is one of the console's own, never taken from the form. */
function back(path: string, notice: string): never {
  const separator = path.includes('?') ? '&' : '?';
  redirect(`${path}${separator}notice=${encodeURIComponent(notice)}`);
}

/** An enquiry's page path for the form's `reference` (letters, digits and dashes only). */
function enquiryPath(form: FormData): string {
  const reference = field(form, 'reference')
    .toUpperCase()
    .replace(/[^A-Z0-9-]/g, '');
  return `/admin/enquiries/${reference}`;
}

/** A privacy request's page path for the form's `reference` (letters, digits and dashes only). */
function privacyPath(form: FormData): string {
  const reference = field(form, 'reference')
    .toUpperCase()
    .replace(/[^A-Z0-9-]/g, '');
  return `/admin/privacy/${reference}`;
}

/** Asks for a sign-in link (the sign-in page's form); same answer for operators and strangers. */
export async function signInAction(_bound: null, form: FormData): Promise<never> {
  const deps = await consoleAuth();
  const answer = await requestSignIn(
    deps,
    form.get('email'),
    clientAddress(await headers(), deps.env.TRUST_PROXY),
  );
  redirect(`${SIGN_IN_PATH}?answer=${answer}`);
}

/** Ends the operator's session (and writes the audit row). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the bound-null-then-form shape
export async function signOutAction(_bound: null, _form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db, auth } = await consoleAuth();
  await appendAudit(db, operator, 'sign-out');
  await auth.api.signOut({ headers: await headers() });
  redirect(SIGN_IN_PATH);
}

/** Releases the spam enquiries ticked in the form (`reference`, one or several). */
export async function releaseAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db, env } = await consoleAuth();
  const references = form.getAll('reference').map(String).filter(Boolean).slice(0, 200);
  const results = await releaseEnquiries(db, operator, references, {
    webhookUrls: env.WEBHOOK_URLS,
  });
  const released = [...results.values()].filter((result) => result === 'released').length;
  if (released) nudgeQueueWorker();
  back(
    field(form, 'from') === 'enquiry' ? enquiryPath(form) : '/admin/spam',
    released ? 'released' : 'nothing-released',
  );
}

/** Re-queues the failed deliveries of the form's enquiry. */
export async function retryAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db } = await consoleAuth();
  const count = await retryDeliveries(db, operator, field(form, 'reference'));
  if (count) nudgeQueueWorker();
  back(enquiryPath(form), count === null ? 'not-found' : 'retried');
}

/** Acknowledges the failed deliveries of the form's enquiry. */
export async function acknowledgeAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db } = await consoleAuth();
  const count = await acknowledgeDeliveries(db, operator, field(form, 'reference'));
  back(enquiryPath(form), count === null ? 'not-found' : 'acknowledged');
}

/** Cancels the upcoming demo of the form's enquiry, as the visitor's cancel does. */
export async function cancelDemoAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db, env } = await consoleAuth();
  const result = await cancelDemoAs(db, operator, bookingSettings(env), field(form, 'reference'));
  if (result.outcome === 'cancelled') nudgeQueueWorker();
  back(field(form, 'from') === 'demos' ? '/admin/demos' : enquiryPath(form), result.outcome);
}

/** Moves the upcoming demo of the form's enquiry to the chosen `start`. */
export async function rescheduleDemoAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator();
  const { db, env } = await consoleAuth();
  const start = Date.parse(field(form, 'start'));
  const result = Number.isFinite(start)
    ? await rescheduleDemoAs(db, operator, bookingSettings(env), field(form, 'reference'), start)
    : 'invalid';
  if (result === 'rescheduled') nudgeQueueWorker();
  back(enquiryPath(form), result);
}

const roleOf = (form: FormData): OperatorRole =>
  field(form, 'role') === 'admin' ? 'admin' : 'sales';

/** Adds an operator (admins only). */
export async function addOperatorAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  const { db } = await consoleAuth();
  back('/admin/operators', await addOperator(db, operator, field(form, 'email'), roleOf(form)));
}

/** Changes an operator's role (admins only). */
export async function changeRoleAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  const { db } = await consoleAuth();
  back(
    '/admin/operators',
    await changeOperatorRole(db, operator, field(form, 'email'), roleOf(form)),
  );
}

/** Removes an operator and so ends their sessions (admins only). */
export async function removeOperatorAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  const { db } = await consoleAuth();
  back('/admin/operators', await removeOperator(db, operator, field(form, 'email')));
}

/**
 * Erases everything held for the person of the form's enquiry (admins only, after the page's
 * confirmation step: the form must carry `confirm=erase`): the same erasure as `leads erase` and a
 * visitor's request. Waits up to 15 s for the cancellation of a live demo to be sent.
 */
export async function erasePersonAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  if (field(form, 'confirm') !== 'erase') back(enquiryPath(form), 'invalid');
  const { db } = await consoleAuth();
  nudgeQueueWorker();
  const result = await erasePersonOf(db, operator, field(form, 'reference'), { waitMs: 15_000 });
  nudgeQueueWorker();
  if (result.outcome === 'erased') back('/admin', 'erased');
  back(enquiryPath(form), result.outcome === 'not-found' ? 'not-found' : 'erase-waiting');
}

/** Assigns the form's privacy request to the chosen admin (`assignee`; admins only). */
export async function assignPrivacyAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  const { db } = await consoleAuth();
  const result = await assignPrivacyRequest(
    db,
    operator,
    field(form, 'reference'),
    field(form, 'assignee'),
    findOperator,
  );
  back(privacyPath(form), result === 'closed' ? 'already-closed' : result);
}

/**
 * E-mails the reply to the form's privacy request and closes it (admins only); back to the list
 * once closed, to the request when nothing was sent.
 */
export async function replyPrivacyAction(_bound: null, form: FormData): Promise<never> {
  const operator = await requireActionOperator('admin');
  const { db } = await consoleAuth();
  const result = await replyToPrivacyRequest(
    db,
    operator,
    field(form, 'reference'),
    String(form.get('reply') ?? ''),
  );
  if (result === 'replied') {
    nudgeQueueWorker();
    back('/admin/privacy', 'replied');
  }
  back(
    privacyPath(form),
    result === 'closed' ? 'already-closed' : result === 'invalid' ? 'reply-invalid' : result,
  );
}
