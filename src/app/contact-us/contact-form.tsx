'use client';

import {
  useActionState,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { CtaButton } from '@/components/ui/cta';
import {
  contactFields,
  demoRequestField,
  fieldDefinition,
  formTokenField,
  overLimitFields,
  readValues,
  sourcePageField,
  type ContactField,
} from '@/lib/contact-fields';
import type { ContactErrors, ContactFormState } from '@/lib/contact-schema';
import type { EnquiryContext } from '@/lib/enquiry-context';
import { sendEnquiry } from './actions';
import { holdSubmitForProof } from './await-proof';
import { Confirmation } from './confirmation';
import { DeferredProof } from './deferred-proof';
import { catchFailedCall, type FailedCall } from './failed-call';
import { FormField } from './form-field';
import { Honeypot } from './honeypot';

const initialState: ContactFormState = { status: 'idle' };

/** Whether `field` is half the form's width in the registry. */
function isHalfWidth(field: ContactField): boolean {
  const definition = fieldDefinition(field);
  return definition.kind !== 'lines' && definition.width === 'half';
}

/**
 * The form's rows, in the registry's order: two consecutive `half` fields share a row (side by
 * side from the `sm` breakpoint), every other field takes a row of its own.
 */
const formRows: readonly (readonly ContactField[])[] = contactFields.reduce<ContactField[][]>(
  (rows, field) => {
    const last = rows.at(-1);
    if (last?.length === 1 && isHalfWidth(last[0]!) && isHalfWidth(field)) last.push(field);
    else rows.push([field]);
    return rows;
  },
  [],
);

/** Shown when the browser refuses to send a field over its limit. */
const tooLongMessage =
  'Please shorten the fields marked below. Nothing was sent: what you typed is still in the form.';
/** Shown when the post did not reach the action: refused by the server, or no answer. */
const failedMessages: Record<FailedCall, string> = {
  refused:
    'This page is out of date and could not send your enquiry. Please reload it and send again. What you typed is still in the form: copy a long message before you reload.',
  network:
    'Your enquiry could not be sent: the connection failed. What you typed is still in the form: please check your connection and press Submit again.',
};

/** The action, with a failed call answered in the form instead of the error page. */
const send = catchFailedCall(sendEnquiry, (form, why): ContactFormState => ({
  status: 'failed',
  message: failedMessages[why],
  values: readValues(form),
}));

type ContactFormProps = {
  /** Signed form token from the server; null when the form cannot be sent right now. */
  token: string | null;
  /** Subject to pre-fill (the demo subject when arriving from "Schedule a Demo"). */
  defaultSubject: string;
  /** The privacy notice above Submit (content only: rendered by the server). */
  notice: ReactNode;
  /** Where the visitor came from, posted as hidden fields and kept with the lead. */
  context?: EnquiryContext;
  /** The visit's source as hidden fields (<VisitSourceFields>, rendered on the server). */
  sourceFields?: ReactNode;
};

/**
 * The contact form (spec §2). Posts to the `sendEnquiry` server action: without
 * JavaScript as a normal form POST that re-renders the page with the result, with JavaScript
 * without a reload. After an error, every typed value is shown again, each field shows its
 * message and the first invalid field takes focus; after success a confirmation with the
 * reference replaces the form. A `role="status"` region announces either outcome.
 * With JavaScript, a field over its limit by the one length rule (src/lib/contact-fields.ts) is
 * refused before anything is sent, with the message the server would give, and what was typed stays;
 * a post the server refuses or the network loses is answered by a `role="alert"` message above
 * Submit, what was typed kept.
 */
export function ContactForm({
  token,
  defaultSubject,
  notice,
  context,
  sourceFields,
}: ContactFormProps) {
  const [state, formAction, actionPending] = useActionState(send, initialState);
  const [awaitingProof, setAwaitingProof] = useState(false);
  const pending = actionPending || awaitingProof;
  const formRef = useRef<HTMLFormElement>(null);
  const confirmationRef = useRef<HTMLHeadingElement>(null);

  const [tooLong, setTooLong] = useState<ContactErrors | null>(null);

  const errors = tooLong ?? (state.status === 'invalid' ? state.errors : {});
  const firstInvalid = contactFields.find((field) => errors[field]);
  const currentToken = (state.status === 'invalid' && state.token) || token;

  useEffect(() => {
    const target =
      state.status === 'accepted'
        ? confirmationRef.current
        : firstInvalid && formRef.current?.elements.namedItem(firstInvalid);
    if (!(target instanceof HTMLElement)) return;
    // Centre it rather than let focus scroll it under the sticky header.
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'center' });
  }, [state, tooLong, firstInvalid]);

  /** Refuses to send when a field is over its limit (a valid form is far below the body limit). */
  const checkLengths = (event: FormEvent<HTMLFormElement>) => {
    const over = overLimitFields(readValues(new FormData(event.currentTarget)));
    const refused = Object.keys(over).length > 0;
    if (refused) event.preventDefault();
    setTooLong(refused ? over : null);
  };

  /** A fast visitor's submit waits for the proof of work (holdSubmitForProof). */
  const submitAfterProof = (event: MouseEvent<HTMLButtonElement>) =>
    holdSubmitForProof(event, setAwaitingProof);

  const value = (field: ContactField) =>
    'values' in state ? state.values[field] : field === 'subject' ? defaultSubject : '';
  const field = (name: ContactField) => ({
    name,
    defaultValue: value(name),
    error: errors[name],
    autoFocus: name === firstInvalid,
  });

  return (
    <div>
      <p
        role="status"
        className={
          tooLong || state.status === 'invalid'
            ? 'mb-2 rounded border border-red-700 bg-red-50 px-2 py-1.5 font-medium text-red-800'
            : 'sr-only'
        }
      >
        {state.status === 'accepted' &&
          `${state.message} Your reference number is ${state.reference}.`}
        {tooLong ? tooLongMessage : state.status === 'invalid' && state.message}
      </p>

      {state.status === 'accepted' ? (
        <Confirmation
          reference={state.reference}
          headingRef={confirmationRef}
          booking={state.booking}
        />
      ) : (
        <form
          ref={formRef}
          action={formAction}
          onSubmit={checkLengths}
          className="relative grid gap-2"
          aria-describedby="contact-required-note"
        >
          <p id="contact-required-note" className="text-sm text-muted">
            Fields marked <span className="text-red-700">*</span> are required.
          </p>
          {formRows.map((row) =>
            row.length === 1 ? (
              <FormField key={row[0]} {...field(row[0]!)} />
            ) : (
              <div key={row.join()} className="grid gap-2 sm:grid-cols-2">
                {row.map((name) => (
                  <FormField key={name} {...field(name)} />
                ))}
              </div>
            ),
          )}

          <input type="hidden" name={formTokenField} value={currentToken ?? ''} />
          {context?.demoRequested && <input type="hidden" name={demoRequestField} value="1" />}
          {context?.sourcePage && (
            <input type="hidden" name={sourcePageField} value={context.sourcePage} />
          )}
          {sourceFields}
          <Honeypot id="contact-xq" />

          {notice}

          {!currentToken && (
            <p className="rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-sm text-amber-900">
              The form is unavailable for a moment. Please reload the page, or call or e-mail us
              using the details on this page.
            </p>
          )}

          {currentToken && <DeferredProof formToken={currentToken} />}

          {state.status === 'failed' && (
            <p
              role="alert"
              className="rounded border border-red-700 bg-red-50 px-2 py-1.5 font-medium text-red-800"
            >
              {state.message}
            </p>
          )}

          <div>
            <CtaButton
              type="submit"
              size="md"
              disabled={pending || !currentToken}
              aria-disabled={pending || !currentToken}
              onClick={submitAfterProof}
            >
              {pending ? 'Sending…' : 'Submit'}
            </CtaButton>
          </div>
        </form>
      )}
    </div>
  );
}
