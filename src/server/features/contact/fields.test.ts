import { getTableColumns, type Column } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  contactFieldRegistry,
  contactFields,
  contactLabels,
  multiLineFields,
  singleLineFields,
  type ContactValues,
} from '@/lib/contact-fields';
import { buildNotification } from './notification';
import { leads } from './schema';
import { buildEnquiryEvent } from './webhook-event';
import { emptySource } from '@/lib/visit-source';

/**
 * The columns of `leads` that are not fields of the contact form: a new column is either added to
 * the registry (src/lib/contact-fields.ts) or named here, on purpose.
 */
const notFormFields = [
  'id',
  'reference',
  'submissionId',
  'noticeVersion',
  'verdict',
  'spamReason',
  'releasedAt',
  'demoRequested',
  'sourcePage',
  'suppressed',
  // The visit's source (src/lib/visit-source.ts): hidden fields, not typed by the visitor.
  'landingPage',
  'referrerHost',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'createdAt',
];

/** A distinct value per field, so an output missing one or mixing two up shows. */
const values = Object.fromEntries(
  contactFields.map((field) => [field, `value of ${field}`]),
) as ContactValues;

const lead = {
  id: '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11',
  reference: 'NH-7K3P9QXD2M',
  createdAt: new Date('2026-03-05T09:30:00.000Z'),
  demoRequested: false,
  sourcePage: null,
  ...emptySource,
  ...values,
};

/** snake_case of a camelCase name, as the table names its columns. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

describe('the contact-field registry and the leads table', () => {
  it('has a NOT NULL text column of the same name for every field', () => {
    const columns: Record<string, Column | undefined> = getTableColumns(leads);
    for (const field of contactFields) {
      const column = columns[field];
      expect(column, `leads has no column for the field ${field}`).toBeDefined();
      expect([column?.name, column?.columnType, column?.notNull]).toEqual([
        snakeCase(field),
        'PgText',
        true,
      ]);
    }
  });

  it('has no column that is neither a field nor declared not to be one', () => {
    const columns = Object.keys(getTableColumns(leads));
    expect(columns.filter((column) => !notFormFields.includes(column)).sort()).toEqual(
      [...contactFields].sort(),
    );
  });

  it('gives every field a label, a positive limit and a kind', () => {
    for (const field of contactFields) {
      const definition = contactFieldRegistry[field];
      expect(definition.label).toMatch(/\S/);
      expect(definition.limit).toBeGreaterThan(0);
      expect(['line', 'email', 'lines']).toContain(definition.kind);
    }
  });
});

describe('outputs built from the registry', () => {
  it('the provider e-mail lists every field under its label, in registry order', () => {
    const { text, html } = buildNotification(lead, { from: 'a@b.example', to: 'c@d.example' });
    const lines = String(text).split('\n');
    const listed = [
      ...singleLineFields.map((field) =>
        lines.indexOf(`${contactLabels[field]}: ${values[field]}`),
      ),
      ...multiLineFields.map((field) => lines.indexOf(values[field])),
    ];
    expect(listed.every((index) => index > 0)).toBe(true);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    for (const field of contactFields) {
      expect(html).toContain(contactLabels[field]);
      expect(html).toContain(values[field]);
    }
  });

  it('the webhook event carries exactly the registry fields, in registry order', () => {
    const { fields } = buildEnquiryEvent(lead).data;
    expect(Object.keys(fields)).toEqual([...contactFields]);
    expect(fields).toEqual(values);
  });
});
