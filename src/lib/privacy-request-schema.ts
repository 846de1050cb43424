import { z } from 'zod';
import { privacyRequestKinds, privacyRequestTexts } from '@/content/privacy';
import { contactLimits, fieldLength } from './contact-fields';
import { contactSchema } from './contact-schema';

/**
 * The privacy-request form of /privacy-requests (DPDP Act 2023, ss.6(4), 11–14): its fields, the
 * zod schema the server validates with, and the state the server action returns. Client-safe.
 */

/** The kinds of request, in the form's order (keys of `privacyRequestKinds`). */
export const privacyKinds = Object.keys(privacyRequestKinds) as PrivacyKind[];

/** A kind of privacy request: `copy`, `correct`, `erase`, `withdraw`, `nominate`, `grievance`. */
export type PrivacyKind = keyof typeof privacyRequestKinds;

/** The form's fields. */
export type PrivacyField = 'email' | 'kind' | 'details';

/** Most characters of `details` (the enquiry message's limit, by the same length rule). */
export const DETAILS_MAX = 2000;

const controlCharacters = /[\p{Cc}\u2028\u2029]/u;
const lineBreaksAndTabs = /[\t\n\r]/g;

/**
 * Validates one request: a valid e-mail address (the contact form's rule), one of the kinds, and
 * details of at most {@link DETAILS_MAX} characters, required for the kinds that need them
 * (`needsDetails` in src/content/privacy.ts: correct, nominate, grievance). Never throws with
 * `safeParse`.
 */
export const privacyRequestSchema = z
  .object({
    email: contactSchema.shape.email,
    kind: z.enum(privacyKinds as [PrivacyKind, ...PrivacyKind[]], 'Choose what you would like.'),
    details: z
      .string()
      .trim()
      .refine(
        (value) => fieldLength(value) <= DETAILS_MAX,
        `Details must be at most ${DETAILS_MAX} characters.`,
      )
      .refine(
        (value) => !controlCharacters.test(value.replace(lineBreaksAndTabs, '')),
        'Details must not contain control characters.',
      )
      .default(''),
  })
  .superRefine((request, context) => {
    if (privacyRequestKinds[request.kind].needsDetails && request.details === '')
      context.addIssue({
        code: 'custom',
        path: ['details'],
        message: privacyRequestTexts.detailsRequired,
      });
  });

/** A valid privacy request. */
export type PrivacyRequestInput = z.infer<typeof privacyRequestSchema>;

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

/** The first message of each invalid field of a failed parse. */
export function privacyFieldErrors(error: z.ZodError): Partial<Record<PrivacyField, string>> {
  const errors: Partial<Record<PrivacyField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'kind' || field === 'details') && !errors[field])
      errors[field] = issue.message;
  }
  return errors;
}

/** `maxLength` of the e-mail input (2 UTF-16 units per character, as the contact form's). */
export const emailInputMaxLength = 2 * contactLimits.email;
