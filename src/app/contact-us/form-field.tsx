'use client';

import { clsx } from 'clsx';
import { useCallback, useState } from 'react';
import {
  contactLabels,
  contactLimits,
  fieldDefinition,
  fieldLength,
  inputMaxLength,
  type ContactField,
} from '@/lib/contact-fields';

/** Shared look of inputs and the textarea: AA borders, visible focus, red when invalid. */
export const controlClass =
  'mt-0.5 block w-full rounded border border-slate-500 bg-white px-1.5 py-1 text-base text-ink shadow-xs transition-colors focus:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 aria-invalid:border-red-700 aria-invalid:bg-red-50/40';

type FormFieldProps = {
  name: ContactField;
  defaultValue: string;
  /** This field's error message, if any. */
  error?: string;
  /** Focus on load (the first invalid field after a submission without JavaScript). */
  autoFocus?: boolean;
  className?: string;
};

/** Share of a field's limit from which its live character count shows. */
const COUNT_FROM = 0.8;

/**
 * One labelled form control, as the registry of src/lib/contact-fields.ts defines the field: an
 * input (type `email` for the e-mail, with its `autocomplete` token) or a textarea for a multi-line
 * field; visible label (required ones marked with *), `maxLength` as the
 * length rule allows (`inputMaxLength`), and its error linked by `aria-describedby` and flagged with
 * `aria-invalid`. From 80% of the field's limit a live count in characters by the one length rule
 * (`fieldLength`, src/lib/contact-fields.ts) shows, in red when over: `maxLength` counts UTF-16
 * units, so the browser cannot enforce a limit in code points by itself.
 */
export function FormField(props: FormFieldProps) {
  const { name, defaultValue, error, autoFocus, className } = props;
  const definition = fieldDefinition(name);
  const required = definition.required !== undefined;
  const [length, setLength] = useState(() => fieldLength(defaultValue));
  // The framework starts on the visitor's first interaction (src/lib/page-loader.ts): what was
  // typed before it hydrated the field is in the field, and counted once it is.
  const countTyped = useCallback((element: HTMLInputElement | HTMLTextAreaElement | null) => {
    if (element) setLength(fieldLength(element.value));
  }, []);
  const id = `contact-${name}`;
  const errorId = `${id}-error`;
  const countId = `${id}-count`;
  const limit = contactLimits[name];
  const showCount = length >= COUNT_FROM * limit;
  const describedBy = [error && errorId, showCount && countId].filter(Boolean).join(' ');
  const shared = {
    id,
    name,
    ref: countTyped,
    defaultValue,
    required,
    autoFocus,
    maxLength: inputMaxLength(name),
    onInput: (event: React.FormEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setLength(fieldLength(event.currentTarget.value)),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    className: controlClass,
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {contactLabels[name]}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        ) : (
          <span className="ml-0.5 font-normal text-muted">(optional)</span>
        )}
      </label>
      {definition.kind === 'lines' ? (
        <textarea
          {...shared}
          rows={definition.rows}
          className={clsx(controlClass, 'min-h-20 resize-y')}
        />
      ) : (
        <input
          {...shared}
          type={definition.kind === 'email' ? 'email' : 'text'}
          autoComplete={definition.autoComplete}
        />
      )}
      {showCount && (
        <p
          id={countId}
          aria-live="polite"
          className={clsx(
            'mt-0.5 text-sm',
            length > limit ? 'font-medium text-red-700' : 'text-muted',
          )}
        >
          {length > limit
            ? `${length} of ${limit} characters: ${length - limit} too many`
            : `${length} of ${limit} characters`}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-0.5 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
