'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import {
  consoleAction,
  text,
  texts,
  withNotice,
  type FormFields,
  consoleAuth,
} from '@/server/features/console/routes';
import {
  SIGN_IN_PATH,
  cancelDemoAs,
  releaseEnquiries,
  rescheduleDemoAs,
  addOperator,
  changeOperatorRole,
  findOperator,
  removeOperator,
  requestSignIn,
} from '@/server/features/console';
import {
  acknowledgeDeliveries,
  retryDeliveries,
  type DeliveryAct,
} from '@/server/wiring/delivery-retry';
import type { OperatorRole } from '@/server/features/console';
import { getDemoEnv, bookingSettings } from '@/server/features/demos';
import {
  assignPrivacyRequest,
  closeAbusiveRequests,
  replyToPrivacyRequest,
} from '@/server/features/privacy';
import { clientAddress } from '@/server/platform/http/client-address';
import { nudgeQueueWorker } from '@/server/delivery/queue/runtime';
import { erasePersonOf } from '@/server/wiring/erasure';
import { releaseTargets } from '@/server/wiring/release';

/**
 * The console's server actions, each through consoleAction (origin, session and role checked on
 * the server, the form read by a schema); each calls the same audited command as the `leads` CLI
 * and redirects back with a notice (POST, then GET).
 */

/** A reference as a path segment: upper case, letters, digits and dashes only. */
const segment = (reference: string) => reference.toUpperCase().replace(/[^A-Z0-9-]/g, '');

/** An enquiry's page path for a `reference`. */
const enquiryPath = (reference: string) => `/admin/enquiries/${segment(reference)}`;

/** A privacy request's page path for a `reference`. */
const privacyPath = (reference: string) => `/admin/privacy/${segment(reference)}`;

/** A role chosen in a form: `admin`, anything else `sales`. */
const role = text.transform((value): OperatorRole => (value === 'admin' ? 'admin' : 'sales'));

/**
 * Asks for a sign-in link (the sign-in page's form); the same answer, as fast, for operators and
 * strangers. Its link opens the console's home, whatever else the form carries.
 */
export async function signInAction(_bound: null, form: FormData): Promise<never> {
  const deps = await consoleAuth();
  const answer = await requestSignIn(
    deps,
    form.get('email'),
    clientAddress(await headers(), deps.env.TRUST_PROXY),
  );
  redirect(`${SIGN_IN_PATH}?answer=${answer}`);
}

/** A refused retry or acknowledgement's notice, else `notice(count)`. */
const deliveryNotice = (count: DeliveryAct, done: string) =>
  count === 'refused' ? 'refused' : count === null ? 'not-found' : done;

/** Ends the operator's session (and writes the audit row). */
export const signOutAction = consoleAction(
  { schema: z.object({}), audit: 'sign-out' },
  async (_input, { auth }) => {
    await auth.api.signOut({ headers: await headers() });
    return SIGN_IN_PATH;
  },
);

/** Releases the spam enquiries ticked in the form (`reference`, one or several). */
export const releaseAction = consoleAction(
  {
    schema: z.object({
      reference: z
        .array(z.string())
        .optional()
        .transform((values = []) => ({
          ticked: texts(200).parse(values),
          first: text.parse(values),
        })),
      from: text,
    }),
  },
  async ({ reference, from }, { operator, db }) => {
    const results = await releaseEnquiries(
      db,
      operator,
      reference.ticked,
      releaseTargets(getDemoEnv()),
    );
    const released = [...results.values()].filter((result) => result === 'released').length;
    if (released) nudgeQueueWorker();
    return withNotice(
      from === 'enquiry' ? enquiryPath(reference.first) : '/admin/spam',
      released ? 'released' : 'nothing-released',
    );
  },
);

/** Re-queues the failed deliveries of the form's enquiry. */
export const retryAction = consoleAction(
  { schema: z.object({ reference: text }) },
  async ({ reference }, { operator, db }) => {
    const count = await retryDeliveries(db, operator, reference);
    if (typeof count === 'number' && count > 0) nudgeQueueWorker();
    return withNotice(enquiryPath(reference), deliveryNotice(count, 'retried'));
  },
);

/** Acknowledges the failed deliveries of the form's enquiry. */
export const acknowledgeAction = consoleAction(
  { schema: z.object({ reference: text }) },
  async ({ reference }, { operator, db }) => {
    const count = await acknowledgeDeliveries(db, operator, reference);
    return withNotice(enquiryPath(reference), deliveryNotice(count, 'acknowledged'));
  },
);

/** Cancels the upcoming demo of the form's enquiry, as the visitor's cancel does. */
export const cancelDemoAction = consoleAction(
  { schema: z.object({ reference: text, from: text }) },
  async ({ reference, from }, { operator, db }) => {
    const result = await cancelDemoAs(db, operator, bookingSettings(getDemoEnv()), reference);
    if (result.outcome === 'cancelled') nudgeQueueWorker();
    return withNotice(from === 'demos' ? '/admin/demos' : enquiryPath(reference), result.outcome);
  },
);

/** Moves the upcoming demo of the form's enquiry to the chosen `start`. */
export const rescheduleDemoAction = consoleAction(
  { schema: z.object({ reference: text, start: text.transform((value) => Date.parse(value)) }) },
  async ({ reference, start }, { operator, db }) => {
    const result = Number.isFinite(start)
      ? await rescheduleDemoAs(db, operator, bookingSettings(getDemoEnv()), reference, start)
      : 'invalid';
    if (result === 'rescheduled') nudgeQueueWorker();
    return withNotice(enquiryPath(reference), result);
  },
);

/** Adds an operator (admins only, signed in within 15 minutes). */
export const addOperatorAction = consoleAction(
  {
    role: 'admin',
    act: 'operator-add',
    fresh: true,
    schema: z.object({ email: text, role }),
  },
  async (input, { operator, db }) =>
    withNotice('/admin/operators', await addOperator(db, operator, input.email, input.role)),
);

/** Changes an operator's role (admins only, signed in within 15 minutes). */
export const changeRoleAction = consoleAction(
  {
    role: 'admin',
    act: 'operator-role',
    fresh: true,
    schema: z.object({ email: text, role }),
  },
  async (input, { operator, db }) =>
    withNotice('/admin/operators', await changeOperatorRole(db, operator, input.email, input.role)),
);

/** Removes an operator and so ends their sessions (admins only, signed in within 15 minutes). */
export const removeOperatorAction = consoleAction(
  {
    role: 'admin',
    act: 'operator-remove',
    fresh: true,
    schema: z.object({ email: text }),
  },
  async ({ email }, { operator, db }) =>
    withNotice('/admin/operators', await removeOperator(db, operator, email)),
);

/** The notice of an erasure that erased nothing, by its outcome. */
const eraseNotices = {
  'not-found': 'not-found',
  operator: 'erase-operator',
  'cancellations-unsent': 'erase-waiting',
} as const;

/**
 * Erases everything held for the person of the form's enquiry (admins only, signed in within 15
 * minutes, after the page's confirmation step: the form must carry `confirm=erase`, else back
 * with `invalid`): the same erasure as `leads erase` and a visitor's request, refused for an
 * operator's address. Waits up to 15 s for the cancellation of a live demo to be sent.
 */
export const erasePersonAction = consoleAction(
  {
    role: 'admin',
    act: 'erase',
    fresh: true,
    schema: z.object({ reference: text, confirm: text.pipe(z.literal('erase')) }),
    invalid: (fields: FormFields) =>
      withNotice(enquiryPath(text.parse(fields.reference)), 'invalid'),
  },
  async ({ reference }, { operator, db }) => {
    nudgeQueueWorker();
    const result = await erasePersonOf(db, operator, reference, { waitMs: 15_000 });
    nudgeQueueWorker();
    if (result.outcome === 'erased') return withNotice('/admin', 'erased');
    return withNotice(enquiryPath(reference), eraseNotices[result.outcome]);
  },
);

/** Assigns the form's privacy request to the chosen admin (`assignee`; admins only). */
export const assignPrivacyAction = consoleAction(
  { role: 'admin', act: 'privacy-assign', schema: z.object({ reference: text, assignee: text }) },
  async ({ reference, assignee }, { operator, db }) => {
    const result = await assignPrivacyRequest(db, operator, reference, assignee, findOperator);
    return withNotice(privacyPath(reference), result === 'closed' ? 'already-closed' : result);
  },
);

/**
 * Closes the privacy requests ticked in the form (`reference`) as abusive (admins only, signed in
 * within 15 minutes).
 */
export const closeAbusiveAction = consoleAction(
  {
    role: 'admin',
    act: 'privacy-close-abusive',
    fresh: true,
    schema: z.object({ reference: texts(200) }),
  },
  async ({ reference }, { operator, db }) => {
    const closed = await closeAbusiveRequests(db, operator, reference);
    return withNotice('/admin/privacy', closed.length ? 'closed-abusive' : 'nothing-closed');
  },
);

/**
 * E-mails the reply to the form's privacy request and closes it (admins only); back to the list
 * once closed, to the request when nothing was sent.
 */
export const replyPrivacyAction = consoleAction(
  {
    role: 'admin',
    act: 'privacy-reply',
    schema: z.object({
      reference: text,
      reply: z
        .array(z.string())
        .optional()
        .transform((values) => values?.[0] ?? ''),
    }),
  },
  async ({ reference, reply }, { operator, db }) => {
    const result = await replyToPrivacyRequest(db, operator, reference, reply);
    if (result === 'replied') {
      nudgeQueueWorker();
      return withNotice('/admin/privacy', 'replied');
    }
    return withNotice(
      privacyPath(reference),
      result === 'closed' ? 'already-closed' : result === 'invalid' ? 'reply-invalid' : result,
    );
  },
);
