'use client';

import Link from 'next/link';
import { useActionState, useEffect, useRef } from 'react';
import { CtaButton } from '@/components/ui/cta';
import {
  contactFields,
  demoRequestField,
  formTokenField,
  honeypotField,
  sourcePageField,
  type ContactField,
} from '@/lib/contact-fields';
import type { ContactFormState } from '@/lib/contact-schema';
import type { EnquiryContext } from '@/lib/enquiry-context';
import { sendEnquiry } from './actions';
import { Confirmation } from './confirmation';
import { FormField } from './form-field';

const initialState: ContactFormState = { status: 'idle' };

type ContactFormProps = {
  /** Signed form token from the server; null when the form cannot be sent right now. */
  token: string | null;
  /** Subject to pre-fill (the demo subject when arriving from "Schedule a Demo"). */
  defaultSubject: string;
  /** How long enquiries are kept, for the privacy notice (LEADS_RETENTION_DAYS). */
  retentionDays: number;
  /** Where the visitor came from, posted as hidden fields and kept with the lead (issue 12). */
  context?: EnquiryContext;
};

/**
 * The contact form (spec §2, issue 3). Posts to the `sendEnquiry` server action: without
 * JavaScript as a normal form POST that re-renders the page with the result, with JavaScript
 * without a reload. After an error, every typed value is shown again, each field shows its
 * message and the first invalid field takes focus; after success a confirmation with the
 * reference replaces the form. A `role="status"` region announces either outcome.
 */
export function ContactForm({ token, defaultSubject, retentionDays, context }: ContactFormProps) {
  const [state, formAction, pending] = useActionState(sendEnquiry, initialState);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmationRef = useRef<HTMLHeadingElement>(null);

  const errors = state.status === 'invalid' ? state.errors : {};
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
  }, [state, firstInvalid]);

  const value = (field: ContactField) =>
    state.status === 'invalid' ? state.values[field] : field === 'subject' ? defaultSubject : '';
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
          state.status === 'invalid'
            ? 'mb-2 rounded border border-red-700 bg-red-50 px-2 py-1.5 font-medium text-red-800'
            : 'sr-only'
        }
      >
        {state.status === 'accepted' && `${state.message} Your reference number is ${state.reference}.`}
        {state.status === 'invalid' && state.message}
      </p>

      {state.status === 'accepted' ? (
        <Confirmation reference={state.reference} headingRef={confirmationRef} booking={state.booking} />
      ) : (
        <form ref={formRef} action={formAction} className="relative grid gap-2" aria-describedby="contact-required-note">
          <p id="contact-required-note" className="text-sm text-muted">
            Fields marked <span className="text-red-700">*</span> are required.
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            <FormField {...field('firstName')} required autoComplete="given-name" />
            <FormField {...field('lastName')} required autoComplete="family-name" />
          </div>
          <div className="grid gap-2 sm:grid-cols-2">
            <FormField {...field('email')} required type="email" autoComplete="email" />
            <FormField {...field('organization')} required autoComplete="organization" />
          </div>
          <FormField {...field('subject')} required />
          <FormField {...field('message')} multiline rows={6} />

          <input type="hidden" name={formTokenField} value={currentToken ?? ''} />
          {context?.demoRequested && <input type="hidden" name={demoRequestField} value="1" />}
          {context?.sourcePage && <input type="hidden" name={sourcePageField} value={context.sourcePage} />}
          <div aria-hidden="true" className="absolute -left-[9999px] top-0 size-px overflow-hidden">
            <label htmlFor="contact-website">Website (leave this empty)</label>
            <input id="contact-website" type="text" name={honeypotField} tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>

          <p className="text-sm text-muted">
            We use these details only to answer your enquiry, keep them for up to {retentionDays} days and never
            share them for marketing. Read our{' '}
            <Link href="/privacy-policy" className="font-medium text-brand-800 underline underline-offset-2">
              Privacy Policy
            </Link>{' '}
            for your rights under India&apos;s Digital Personal Data Protection Act, 2023.
          </p>

          {!currentToken && (
            <p className="rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-sm text-amber-900">
              The form is unavailable for a moment. Please reload the page, or call or e-mail us using the details on
              this page.
            </p>
          )}

          <div>
            <CtaButton type="submit" size="md" disabled={pending || !currentToken} aria-disabled={pending || !currentToken}>
              {pending ? 'Sending…' : 'Submit'}
            </CtaButton>
          </div>
        </form>
      )}
    </div>
  );
}
