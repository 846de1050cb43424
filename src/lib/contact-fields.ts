/**
 * The contact form's fields, labels, limits and hidden-field names: plain constants without zod,
 * so the client form can import them without shipping the validation library to the browser
 * (src/lib/contact-schema.ts builds the schema from them and re-exports them).
 */

/** Maximum length of each field, in characters (UTF-16 code units, as `maxLength` counts). */
export const contactLimits = {
  firstName: 100,
  lastName: 100,
  email: 254,
  organization: 200,
  subject: 200,
  message: 5000,
} as const;

/** The form's fields, in display order. */
export const contactFields = [
  'firstName',
  'lastName',
  'email',
  'organization',
  'subject',
  'message',
] as const;

export type ContactField = (typeof contactFields)[number];

/** Visible label of each field (spec §2, Contact Us). */
export const contactLabels: Record<ContactField, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  organization: 'Organization',
  subject: 'Subject',
  message: 'Message',
};

/**
 * Names of the form's hidden fields: the signed token and the honeypot bots fill in. The
 * honeypot's name matches no browser-autofill heuristic (no name, e-mail, phone, address, company,
 * URL or website words), so autofill never fills it for a real visitor (issue 10).
 */
export const formTokenField = 'formToken';
export const honeypotField = 'xq_trap';

/**
 * Hidden fields telling where an enquiry came from (issue 12): `1` when the visitor arrived through
 * "Schedule a Demo", and the path on this site they came from. Checked by src/lib/enquiry-context.ts.
 */
export const demoRequestField = 'demoRequested';
export const sourcePageField = 'sourcePage';
