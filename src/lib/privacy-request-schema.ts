import { z } from 'zod';
import { privacyRequestKinds, privacyRequestTexts } from '@/content/privacy';
import { fieldLength } from './contact-fields';
import { contactSchema } from './contact-schema';
import {
  DETAILS_MAX,
  privacyKinds,
  type PrivacyField,
  type PrivacyKind,
} from './privacy-request-fields';

export * from './privacy-request-fields';

/**
 * The privacy-request form of /privacy-requests (DPDP Act 2023, ss.6(4), 11–14): the zod schema
 * the server validates with, and what ./privacy-request-fields.ts defines (re-exported). Client-safe,
 * but it brings zod: the form itself imports the fields module only.
 */

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
