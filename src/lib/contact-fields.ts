/**
 * The contact form's fields, labels, limits and hidden-field names: plain constants without zod,
 * so the client form can import them without shipping the validation library to the browser
 * (src/lib/contact-schema.ts builds the schema from them and re-exports them).
 *
 * The one registry of a lead's fields: the form, the schema, the provider's notification e-mail
 * (src/server/contact/notification.ts), the CSV export (src/server/leads/operations.ts) and the
 * `leads` CLI (scripts/leads.ts) read the fields, their order and their labels from here.
 */

/**
 * Maximum length of each field, in characters as `fieldLength` counts them (the length rule below).
 */
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

/** Fields whose value may span lines (a textarea); one-line listings and headers leave them out. */
export const multiLineFields = ['message'] as const satisfies readonly ContactField[];

/** A field that is not multi-line. */
export type SingleLineField = Exclude<ContactField, (typeof multiLineFields)[number]>;

/** The fields of one line each, in display order: every field but {@link multiLineFields}. */
export const singleLineFields: readonly SingleLineField[] = contactFields.filter(
  (field): field is SingleLineField => !(multiLineFields as readonly string[]).includes(field),
);

/** The fields that together name the visitor, in the order they are written. */
export const nameFields = ['firstName', 'lastName'] as const satisfies readonly SingleLineField[];

/** Whether `field` is one of the {@link nameFields}. */
export function isNameField(field: ContactField): field is (typeof nameFields)[number] {
  return (nameFields as readonly string[]).includes(field);
}

/**
 * The visitor's name as one string, e.g. `Asha Rao`: the {@link nameFields} joined by a space.
 * @param values a lead, enquiry or visitor with at least the name fields
 */
export function visitorName(
  values: Pick<Record<ContactField, string>, (typeof nameFields)[number]>,
): string {
  return nameFields.map((field) => values[field]).join(' ');
}

/**
 * The one length rule of the contact form, applied identically by the browser (live
 * count and the check before Submit, src/app/contact-us) and by the server (src/lib/contact-schema.ts):
 * a value's length is the number of Unicode code points of the trimmed value, and a line break is
 * one character however it is sent (CR LF, as browsers post a textarea's line breaks, or LF, as
 * scripts read them). So a precomposed "é", "😀" and the Devanagari "क" count 1 each, "क्षि" counts 4 (its code
 * points), and a value of `n` characters is at most `2n` UTF-16 code units and `4n` bytes of UTF-8.
 * Code points rather than UTF-16 units so that scripts outside the Basic Multilingual Plane are not
 * held to half the limit.
 * @param value the field's value as typed or as posted
 * @returns its length in characters (code points)
 */
export function fieldLength(value: string): number {
  return Array.from(value.trim().replace(/\r\n/g, '\n')).length;
}

/**
 * The `maxLength` attribute of a field: the most UTF-16 code units a value within `contactLimits`
 * can have (2 per character). The browser stops pasting and typing there; between the limit and
 * this cap the live count and the check before Submit apply the rule above.
 */
export function inputMaxLength(field: ContactField): number {
  return 2 * contactLimits[field];
}

/** The message of a field longer than its limit, shown by the browser and by the server alike. */
export function tooLongMessage(field: ContactField): string {
  return `${contactLabels[field]} must be at most ${contactLimits[field]} characters.`;
}

/**
 * The fields of `values` longer than their limit by `fieldLength`, each with `tooLongMessage`.
 * @param values what the visitor typed (missing fields count as empty)
 * @returns field -> message, empty when every field is within its limit
 */
export function overLimitFields(
  values: Partial<Record<ContactField, string>>,
): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  for (const field of contactFields) {
    if (fieldLength(values[field] ?? '') > contactLimits[field])
      errors[field] = tooLongMessage(field);
  }
  return errors;
}

/**
 * Every contact field of a posted form as the string the visitor typed ('' when absent or not
 * text), for the server and the form alike.
 */
export function readValues(formData: FormData): Record<ContactField, string> {
  const values = {} as Record<ContactField, string>;
  for (const field of contactFields) {
    const value = formData.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}

/**
 * Names of the form's hidden fields: the signed token and the honeypot bots fill in. The
 * honeypot's name matches no browser-autofill heuristic (no name, e-mail, phone, address, company,
 * URL or website words), so autofill never fills it for a real visitor.
 */
export const formTokenField = 'formToken';
export const honeypotField = 'xq_trap';

/**
 * Hidden fields telling where an enquiry came from: `1` when the visitor arrived through
 * "Schedule a Demo", and the path on this site they came from. Checked by src/lib/enquiry-context.ts.
 */
export const demoRequestField = 'demoRequested';
export const sourcePageField = 'sourcePage';
