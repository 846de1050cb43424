import { privacyRequestKinds } from '@/content/privacy';
import { contactLimits } from './contact-fields';

/**
 * The privacy-request form's fields, limits and states, without the zod schema
 * (./privacy-request-schema.ts), so the form in the browser ships no zod.
 */

/** The kinds of request, in the form's order (keys of `privacyRequestKinds`). */
export const privacyKinds = Object.keys(privacyRequestKinds) as PrivacyKind[];

/** A kind of privacy request: `copy`, `correct`, `erase`, `withdraw`, `nominate`, `grievance`. */
export type PrivacyKind = keyof typeof privacyRequestKinds;

/** The form's fields. */
export type PrivacyField = 'email' | 'kind' | 'details';

/** Most characters of `details` (the enquiry message's limit, by the same length rule). */
export const DETAILS_MAX = 2000;

/** What the visitor typed, as strings, shown again after an error. */
export type PrivacyValues = Record<PrivacyField, string>;

/**
 * Outcome of a post of the form: `idle`; `invalid` with the first error per field (or a form-level
 * message) and what was typed; `sent`, the one answer to every valid request (no enumeration).
 */
export type PrivacyFormState =
  | { status: 'idle' }
  | {
      status: 'invalid';
      message: string;
      errors: Partial<Record<PrivacyField, string>>;
      values: PrivacyValues;
      /** A fresh form token, when the posted one had expired. */
      token?: string;
    }
  | { status: 'sent'; message: string };

/** The form's fields as posted ('' when absent or not text). */
export function readPrivacyValues(formData: FormData): PrivacyValues {
  const read = (name: PrivacyField) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  return { email: read('email'), kind: read('kind'), details: read('details') };
}

/** `maxLength` of the e-mail input (2 UTF-16 units per character, as the contact form's). */
export const emailInputMaxLength = 2 * contactLimits.email;
