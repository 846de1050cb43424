/**
 * The one registry of a lead's fields: plain constants without zod, so the client form can import
 * them without shipping the validation library to the browser.
 *
 * Everything that shows, checks or hands on a lead's fields derives them (which, in what order,
 * under which label) from {@link contactFieldRegistry}: the form (src/app/contact-us), its schema
 * (src/lib/contact-schema.ts), the provider's e-mail, the webhook event, the CSV export and the
 * listing, the console's enquiry page, the `leads` CLI and a person's DPDP copy. Adding a field
 * takes an entry here, a column of the same name in the `leads` table and its migration; a test
 * (src/server/features/contact/fields.test.ts) fails while the table and the registry differ.
 */

/** How a field is typed in, and so how it is checked and shown. */
export type FieldKind =
  /** One line of text: control characters refused (they would let a value inject e-mail headers). */
  | 'line'
  /** One e-mail address: one line, its format checked. */
  | 'email'
  /** Several lines (a textarea): line breaks and tabs allowed; left out of one-line listings. */
  | 'lines';

/** What the registry says of one field. */
export type FieldDefinition = {
  /** Visible label (spec §2, Contact Us): on the form, in the e-mail, the CSV, the console. */
  label: string;
  /** Maximum length, in characters as `fieldLength` counts them (the length rule below). */
  limit: number;
  /** The message when it is left empty; a field without one is optional and defaults to ''. */
  required?: string;
} & (
  | {
      kind: 'line' | 'email';
      /** The control's `autocomplete` token (e.g. `given-name`), so browsers can fill it in. */
      autoComplete?: string;
      /** `half`: sits beside the next `half` field on one row of the form (two columns from `sm`). */
      width?: 'half';
    }
  | {
      kind: 'lines';
      /** Visible lines of its textarea. */
      rows: number;
    }
);

/** Every field of the contact form, in display order, with its label, limit and kind. */
export const contactFieldRegistry = {
  firstName: {
    label: 'First Name',
    limit: 100,
    kind: 'line',
    required: 'Enter your first name.',
    autoComplete: 'given-name',
    width: 'half',
  },
  lastName: {
    label: 'Last Name',
    limit: 100,
    kind: 'line',
    required: 'Enter your last name.',
    autoComplete: 'family-name',
    width: 'half',
  },
  email: {
    label: 'Email',
    limit: 254,
    kind: 'email',
    required: 'Enter your e-mail address.',
    autoComplete: 'email',
    width: 'half',
  },
  organization: {
    label: 'Organization',
    limit: 200,
    kind: 'line',
    required: 'Enter your organization.',
    autoComplete: 'organization',
    width: 'half',
  },
  subject: { label: 'Subject', limit: 200, kind: 'line', required: 'Enter a subject.' },
  message: { label: 'Message', limit: 5000, kind: 'lines', rows: 6 },
} as const satisfies Record<string, FieldDefinition>;

type Registry = typeof contactFieldRegistry;

/** The name of a contact field, e.g. `firstName` (also its form control's and its column's). */
export type ContactField = keyof Registry;

/** The form's fields, in display order. */
export const contactFields = Object.keys(contactFieldRegistry) as readonly ContactField[];

/** The definition of `field` in the registry, typed as any field's (for code that reads options). */
export function fieldDefinition(field: ContactField): FieldDefinition {
  return contactFieldRegistry[field];
}

/** A value for each field, e.g. what a visitor typed or what a lead holds. */
export type ContactValues = Record<ContactField, string>;

/** Maximum length of each field, in characters as `fieldLength` counts them (the length rule below). */
export const contactLimits = Object.fromEntries(
  contactFields.map((field) => [field, contactFieldRegistry[field].limit]),
) as { readonly [F in ContactField]: Registry[F]['limit'] };

/** Visible label of each field (spec §2, Contact Us). */
export const contactLabels = Object.fromEntries(
  contactFields.map((field) => [field, contactFieldRegistry[field].label]),
) as Record<ContactField, string>;

/** A field whose value may span lines (a textarea). */
export type MultiLineField = {
  [F in ContactField]: Registry[F]['kind'] extends 'lines' ? F : never;
}[ContactField];

/** A field that is not multi-line. */
export type SingleLineField = Exclude<ContactField, MultiLineField>;

/** Fields whose value may span lines (a textarea); one-line listings and headers leave them out. */
export const multiLineFields: readonly MultiLineField[] = contactFields.filter(
  (field): field is MultiLineField => contactFieldRegistry[field].kind === 'lines',
);

/** The fields of one line each, in display order: every field but {@link multiLineFields}. */
export const singleLineFields: readonly SingleLineField[] = contactFields.filter(
  (field): field is SingleLineField => contactFieldRegistry[field].kind !== 'lines',
);

/**
 * The contact fields of `row` (a lead, an enquiry, a listing's row), in display order, and nothing
 * else: what an output that hands on every field (the webhook event, a person's copy) writes.
 * @param row anything with at least a string for each field
 * @returns a new object with exactly the registry's fields, keys in registry order
 */
export function contactValuesOf(row: ContactValues): ContactValues {
  const values = {} as ContactValues;
  for (const field of contactFields) values[field] = row[field];
  return values;
}

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
