'use client';

import { useActionState, useEffect, useRef, useState, type MouseEvent } from 'react';
import { CtaButton } from '@/components/ui/cta';
import { privacyRequestKinds } from '@/content/privacy';
import { formTokenField } from '@/lib/contact-fields';
import { Honeypot } from '../contact-us/honeypot';
import {
  DETAILS_MAX,
  emailInputMaxLength,
  privacyKinds,
  type PrivacyField,
  type PrivacyFormState,
} from '@/lib/privacy-request-fields';
import { holdSubmitForProof } from '../contact-us/await-proof';
import { DeferredProof } from '../contact-us/deferred-proof';
import { controlClass } from '../contact-us/form-field';
import { askPrivacyLink } from './actions';

const initialState: PrivacyFormState = { status: 'idle' };

/** The fields in form order, for the error summary and the first invalid field. */
const fieldOrder: readonly PrivacyField[] = ['email', 'kind', 'details'];
const fieldLabels: Record<PrivacyField, string> = {
  email: 'Email',
  kind: 'What would you like?',
  details: 'Details',
};

/**
 * The privacy-request form (DPDP Act 2023): e-mail address, the kind of request as a radio group
 * in a fieldset, and details (required for a correction, a nominee or a grievance). Posts to the
 * `askPrivacyLink` server action: without JavaScript as a plain POST that re-renders the page,
 * with it without a reload. After an error, what was typed is shown again, an error summary
 * links to each invalid field and the first takes focus; after a valid post the one answer
 * (the same for every address) replaces the form, announced by a `role="status"` region.
 * It has the contact form's defences: the signed form `token` (null: the form cannot be sent now),
 * a honeypot, and with JavaScript the ALTCHA proof of work, fetched on the first interaction with
 * the form (`DeferredProof`), which a submit waits for.
 */
export function PrivacyRequestForm({ token }: { token: string | null }) {
  const [state, formAction, actionPending] = useActionState(askPrivacyLink, initialState);
  const [awaitingProof, setAwaitingProof] = useState(false);
  const pending = actionPending || awaitingProof;
  const currentToken = (state.status === 'invalid' && state.token) || token;
  const summaryRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const errors = state.status === 'invalid' ? state.errors : {};
  const invalid = fieldOrder.filter((field) => errors[field]);
  const values = state.status === 'invalid' ? state.values : { email: '', kind: '', details: '' };

  useEffect(() => {
    const target = state.status === 'sent' ? doneRef.current : summaryRef.current;
    target?.focus();
  }, [state]);

  /** A fast visitor's submit waits for the proof of work, as on the contact form. */
  const submitAfterProof = (event: MouseEvent<HTMLButtonElement>) =>
    holdSubmitForProof(event, setAwaitingProof);

  if (state.status === 'sent')
    return (
      <p
        ref={doneRef}
        tabIndex={-1}
        role="status"
        className="rounded border border-brand-700 bg-brand-50 px-2 py-1.5 font-medium text-ink"
      >
        {state.message}
      </p>
    );

  const describedBy = (field: PrivacyField) =>
    errors[field] ? `privacy-${field}-error` : undefined;
  const errorText = (field: PrivacyField) =>
    errors[field] && (
      <p id={`privacy-${field}-error`} className="mt-0.5 text-sm font-medium text-red-700">
        {errors[field]}
      </p>
    );

  return (
    <form
      action={formAction}
      className="relative grid gap-2"
      aria-describedby="privacy-required-note"
    >
      {state.status === 'invalid' && (
        <div
          ref={summaryRef}
          tabIndex={-1}
          role="alert"
          className="rounded border border-red-700 bg-red-50 px-2 py-1.5 text-red-800"
        >
          <p className="font-medium">{state.message}</p>
          {invalid.length > 0 && (
            <ul className="mt-0.5 list-disc pl-3 text-sm">
              {invalid.map((field) => (
                <li key={field}>
                  <a href={`#privacy-${field}`} className="underline underline-offset-2">
                    {fieldLabels[field]}: {errors[field]}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p id="privacy-required-note" className="text-sm text-muted">
        Fields marked <span className="text-red-700">*</span> are required.
      </p>

      <div>
        <label htmlFor="privacy-email" className="block text-sm font-semibold text-ink">
          Email
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </label>
        <input
          id="privacy-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={emailInputMaxLength}
          defaultValue={values.email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy('email')}
          className={controlClass}
        />
        {errorText('email')}
      </div>

      <fieldset id="privacy-kind" aria-describedby={describedBy('kind')} className="grid gap-1">
        <legend className="mb-0.5 text-sm font-semibold text-ink">
          {fieldLabels.kind}
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </legend>
        {privacyKinds.map((kind) => (
          <div key={kind} className="flex items-start gap-1">
            <input
              id={`privacy-kind-${kind}`}
              type="radio"
              name="kind"
              value={kind}
              required
              defaultChecked={values.kind === kind}
              aria-describedby={`privacy-kind-${kind}-hint`}
              className="mt-0.5 size-2 shrink-0 accent-brand-700"
            />
            <div>
              <label htmlFor={`privacy-kind-${kind}`} className="text-base text-ink">
                {privacyRequestKinds[kind].label}
              </label>
              <p id={`privacy-kind-${kind}-hint`} className="text-sm text-muted">
                {privacyRequestKinds[kind].hint}
              </p>
            </div>
          </div>
        ))}
        {errorText('kind')}
      </fieldset>

      <div>
        <label htmlFor="privacy-details" className="block text-sm font-semibold text-ink">
          Details{' '}
          <span className="font-normal text-muted">
            (required to correct, nominate or raise a grievance)
          </span>
        </label>
        <textarea
          id="privacy-details"
          name="details"
          rows={5}
          maxLength={2 * DETAILS_MAX}
          defaultValue={values.details}
          aria-invalid={errors.details ? true : undefined}
          aria-describedby={describedBy('details')}
          className={`${controlClass} min-h-20 resize-y`}
        />
        {errorText('details')}
      </div>

      <input type="hidden" name={formTokenField} value={currentToken ?? ''} />
      <Honeypot id="privacy-xq" />
      {!currentToken && (
        <p className="rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-sm text-amber-900">
          The form is unavailable for a moment. Please reload the page, or write to us.
        </p>
      )}
      {currentToken && <DeferredProof formToken={currentToken} />}

      <div>
        <CtaButton
          type="submit"
          size="md"
          disabled={pending || !currentToken}
          aria-disabled={pending || !currentToken}
          onClick={submitAfterProof}
        >
          {pending ? 'Sending…' : 'Send me the link'}
        </CtaButton>
      </div>
    </form>
  );
}
