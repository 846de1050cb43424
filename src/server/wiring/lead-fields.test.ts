import '@test/quiet-logs';
import { visitSourceFields, visitSourceLabels } from '@/lib/visit-source';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { contactFields, contactLabels, type ContactValues } from '@/lib/contact-fields';
import { leads } from '../features/contact/schema';
import { collectPersonData } from '../features/privacy/copy';
import { exportLeadsCsv, listLeads } from '../features/contact/inbox';
import { personalData } from './personal-data';

/**
 * The stored outputs of a lead (the CSV export, the listing behind the console and the CLI, a
 * person's DPDP copy) carry every field of the registry (src/lib/contact-fields.ts), so a field
 * added there and to the table reaches each of them without another edit.
 */

const email = 'registry@hospital.example';
/** A distinct value per field (the e-mail a valid address), stored as they are. */
const values = Object.fromEntries(
  contactFields.map((field) => [field, field === 'email' ? email : `value of ${field}`]),
) as ContactValues;

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('a lead in every output', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      await database.db.insert(leads).values({
        id: randomUUID(),
        reference: 'NH-REGISTRY01',
        submissionId: randomUUID(),
        ...values,
      });
    });
    afterAll(() => database?.dispose());

    it('the CSV has a column per field under its label, in registry order, with its value', async () => {
      const csv = await exportLeadsCsv(database.db);
      const [header, row] = csv.split('\r\n');
      expect(header).toBe(
        [
          'Reference',
          'Received (UTC)',
          ...contactFields.map((f) => contactLabels[f]),
          ...visitSourceFields.map((f) => visitSourceLabels[f]),
          'Suppressed',
          'Delivery',
        ]
          .map((title) => `"${title}"`)
          .join(','),
      );
      const cells = row!.split(',');
      expect(cells.slice(2, 2 + contactFields.length)).toEqual(
        contactFields.map((field) => `"${values[field]}"`),
      );
    });

    it('the listing holds every field', async () => {
      const [summary] = await listLeads(database.db);
      for (const field of contactFields) expect(summary?.[field]).toBe(values[field]);
    });

    it("a person's copy holds every field, between the enquiry's time and its other facts", async () => {
      const { data } = await collectPersonData(
        database.db,
        personalData({ webhookUrls: [] }),
        email,
      );
      const [enquiry] = data.enquiries as Record<string, unknown>[];
      expect(Object.keys(enquiry ?? {})).toEqual([
        'reference',
        'receivedAt',
        ...contactFields,
        'sourcePage',
        ...visitSourceFields,
        'demoRequested',
        'noticeVersion',
        'verdict',
      ]);
      for (const field of contactFields) expect(enquiry?.[field]).toBe(values[field]);
    });
  });
}
