import { z } from 'zod';
import {
  contactFields,
  fieldDefinition,
  fieldLength,
  tooLongMessage,
  type ContactField,
  type ContactValues,
} from './contact-fields';
import type { BookingOffer } from './demo/offer';

export {
  contactFields,
  contactLabels,
  contactLimits,
  formTokenField,
  honeypotField,
} from './contact-fields';
export type { ContactField, ContactValues } from './contact-fields';

// No run-time code generation: zod otherwise probes `new Function('')` in the browser, which the
// site's Content-Security-Policy (no 'unsafe-eval') blocks and reports as a violation.
z.config({ jitless: true });

/**
 * The contact form's one schema, shared by the form (labels, `maxLength`) and the server
 * (validation before anything is stored), built from the registry of src/lib/contact-fields.ts.
 * Client-safe: imports nothing but zod.
 *
 * Rules: every value trimmed; a field with a `required` message required (spec §5: First Name,
 * Last Name, Email, Organization and Subject), the others optional ('' when absent); maximum
 * lengths by the one length rule (`fieldLength`); e-mail format checked; CR, LF and other control
 * characters refused in single-line fields (they would let a value inject e-mail headers), line
 * breaks and tabs allowed in multi-line ones (the message).
 */

/** Control characters (C0, DEL, C1) and the Unicode line/paragraph separators. */
const controlCharacters = /[\p{Cc}\u2028\u2029]/u;
/** Line breaks and tabs, allowed in the message only. */
const lineBreaksAndTabs = /[\t\n\r]/g;

/** The rule of one field, by its kind in the registry. */
function fieldSchema(field: ContactField): z.ZodType<string> {
  const { label, kind, limit, required } = fieldDefinition(field);
  const trimmed = required ? z.string(required).trim().min(1, required) : z.string().trim();
  const withinLimit = trimmed.refine((value) => fieldLength(value) <= limit, tooLongMessage(field));
  const checked: z.ZodType<string> =
    kind === 'email'
      ? withinLimit.pipe(z.email('Enter a valid e-mail address, like name@hospital.org.'))
      : kind === 'lines'
        ? withinLimit.refine(
            (value) => !controlCharacters.test(value.replace(lineBreaksAndTabs, '')),
            `${label} must not contain control characters.`,
          )
        : withinLimit.refine(
            (value) => !controlCharacters.test(value),
            `${label} must be on one line, without control characters.`,
          );
  return required ? checked : checked.default('');
}

/** Validates and normalises one enquiry. Parse with `safeParse`; never throws on bad input. */
export const contactSchema = z.object(
  Object.fromEntries(contactFields.map((field) => [field, fieldSchema(field)])) as Record<
    ContactField,
    z.ZodType<string>
  >,
);

/** A valid, normalised enquiry. */
export type ContactInput = z.infer<typeof contactSchema>;

/** The first error message of each invalid field. */
export type ContactErrors = Partial<Record<ContactField, string>>;

/** Turns a failed parse into one message per field (the first one zod reports). */
export function fieldErrors(error: z.ZodError): ContactErrors {
  const errors: ContactErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && isContactField(field) && !errors[field])
      errors[field] = issue.message;
  }
  return errors;
}

function isContactField(name: string): name is ContactField {
  return (contactFields as readonly string[]).includes(name);
}

/**
 * Outcome of a submission, returned by the server action and rendered by the form.
 * - `idle`: nothing submitted yet.
 * - `invalid`: field errors (or a form-level `message`); `values` are what was typed, to be shown
 *   again; `token` replaces the form token when the old one expired.
 * - `accepted`: the enquiry is stored (or, for a bot, pretends to be); `reference` identifies it;
 *   `booking` offers demo times when booking is on (docs/demo-booking.md).
 * - `failed`: set in the browser, never by the action: the call did not reach it (refused by the
 *   request guard, e.g. a page from before a deploy, or the network failed); `message`
 *   says what to do, `values` are what was typed.
 */
export type ContactFormState =
  | { status: 'idle' }
  | {
      status: 'invalid';
      message: string;
      errors: ContactErrors;
      values: ContactValues;
      token?: string;
    }
  | { status: 'accepted'; message: string; reference: string; booking?: BookingOffer }
  | { status: 'failed'; message: string; values: ContactValues };
