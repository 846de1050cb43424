import { clsx } from 'clsx';
import { contactLabels, contactLimits, type ContactField } from '@/lib/contact-fields';

/** Shared look of inputs and the textarea: AA borders, visible focus, red when invalid. */
const controlClass =
  'mt-0.5 block w-full rounded border border-slate-500 bg-white px-1.5 py-1 text-base text-ink shadow-xs transition-colors focus:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 aria-invalid:border-red-700 aria-invalid:bg-red-50/40';

type FormFieldProps = {
  name: ContactField;
  defaultValue: string;
  /** This field's error message, if any. */
  error?: string;
  required?: boolean;
  /** Focus on load (the first invalid field after a submission without JavaScript). */
  autoFocus?: boolean;
  className?: string;
} & ({ multiline?: false; type?: 'text' | 'email'; autoComplete?: string } | { multiline: true; rows: number });

/**
 * One labelled form control: visible label (required ones marked with *), `maxLength` from the
 * shared schema, and its error linked by `aria-describedby` and flagged with `aria-invalid`.
 */
export function FormField(props: FormFieldProps) {
  const { name, defaultValue, error, required = false, autoFocus, className } = props;
  const id = `contact-${name}`;
  const errorId = `${id}-error`;
  const shared = {
    id,
    name,
    defaultValue,
    required,
    autoFocus,
    maxLength: contactLimits[name],
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
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
      {props.multiline ? (
        <textarea {...shared} rows={props.rows} className={clsx(controlClass, 'min-h-20 resize-y')} />
      ) : (
        <input {...shared} type={props.type ?? 'text'} autoComplete={props.autoComplete} />
      )}
      {error && (
        <p id={errorId} className="mt-0.5 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
