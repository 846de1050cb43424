import { z } from 'zod';
import {
  contactFields,
  contactLabels,
  contactLimits,
  fieldLength,
  tooLongMessage,
  type ContactField,
} from './contact-fields';
import type { BookingOffer } from './demo/offer';

export {
  contactFields,
  contactLabels,
  contactLimits,
  formTokenField,
  honeypotField,
} from './contact-fields';
export type { ContactField } from './contact-fields';

// No run-time code generation: zod otherwise probes `new Function('')` in the browser, which the
// site's Content-Security-Policy (no 'unsafe-eval') blocks and reports as a violation.
z.config({ jitless: true });

/**
 * The contact form's one schema, shared by the form (labels, `maxLength`) and the server
 * (validation before anything is stored). Client-safe: imports nothing but zod.
 *
 * Rules: every value trimmed; First Name, Last Name, Email, Organization and Subject
 * required (spec §5), Message optional; maximum lengths by the one length rule of
 * src/lib/contact-fields.ts (`fieldLength`); e-mail format checked; CR, LF and
 * other control characters refused in single-line fields (they would let a value inject e-mail
 * headers).
 */

/** Control characters (C0, DEL, C1) and the Unicode line/paragraph separators. */
const controlCharacters = /[\p{Cc}\u2028\u2029]/u;
/** Line breaks and tabs, allowed in the message only. */
const lineBreaksAndTabs = /[\t\n\r]/g;

/** A check that a (trimmed) value is within `field`'s limit by the length rule. */
const withinLimit = (field: ContactField) => (value: string) =>
  fieldLength(value) <= contactLimits[field];

function singleLine(field: Exclude<ContactField, 'message' | 'email'>, required: string) {
  const label = contactLabels[field];
  return z
    .string(required)
    .trim()
    .min(1, required)
    .refine(withinLimit(field), tooLongMessage(field))
    .refine(
      (value) => !controlCharacters.test(value),
      `${label} must be on one line, without control characters.`,
    );
}

/** Validates and normalises one enquiry. Parse with `safeParse`; never throws on bad input. */
export const contactSchema = z.object({
  firstName: singleLine('firstName', 'Enter your first name.'),
  lastName: singleLine('lastName', 'Enter your last name.'),
  email: z
    .string('Enter your e-mail address.')
    .trim()
    .min(1, 'Enter your e-mail address.')
    .refine(withinLimit('email'), tooLongMessage('email'))
    .pipe(z.email('Enter a valid e-mail address, like name@hospital.org.')),
  organization: singleLine('organization', 'Enter your organization.'),
  subject: singleLine('subject', 'Enter a subject.'),
  message: z
    .string()
    .trim()
    .refine(withinLimit('message'), tooLongMessage('message'))
    .refine(
      (value) => !controlCharacters.test(value.replace(lineBreaksAndTabs, '')),
      'Message must not contain control characters.',
    )
    .default(''),
});

/** A valid, normalised enquiry. */
export type ContactInput = z.infer<typeof contactSchema>;

/** What the visitor typed, field by field, as strings (kept and shown again after an error). */
export type ContactValues = Record<ContactField, string>;

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
