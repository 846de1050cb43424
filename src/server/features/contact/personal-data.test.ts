import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactFields } from '@/lib/contact-fields';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { deps, formData, request } from '@test/enquiry';
import { contactPersonalData } from './personal-data';
import { submitEnquiry } from './submit';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle("the contact form's part of a person's data", backend),
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
      });
      afterAll(() => database?.dispose());

      const holder = contactPersonalData({
        leadsTo: 'sales@nirmaya.example',
        webhookUrls: ['https://crm.example/hook'],
      });

      it('copies every field of the form (the field list, not a hand-made one) and where it went', async () => {
        const values = {
          firstName: 'Kavya',
          lastName: 'Iyer',
          email: 'Kavya@Clinic.example',
          organization: 'Iyer Clinic',
          message: 'Tell me about billing',
        };
        await submitEnquiry(formData(values), request(), deps(database.db));
        const part = await holder.copy!(database.db, ' kavya@clinic.example ');
        const [enquiry] = part.sections.enquiries as Record<string, unknown>[];
        for (const field of contactFields) expect(enquiry, field).toHaveProperty(field);
        expect(enquiry).toMatchObject({ ...values, reference: expect.stringMatching(/^NH-/) });
        expect(part.counts).toEqual({ enquiries: 1 });
        expect(part.sharedWith).toEqual(['sales@nirmaya.example', 'crm.example']);
        expect(part.deliveryOwners).toEqual([
          { owner: expect.any(String), reference: enquiry!.reference },
        ]);
        expect(await holder.count!(database.db, 'KAVYA@clinic.example')).toEqual({ enquiries: 1 });
      });

      it('erases the enquiries of an address in a transaction, naming those the receivers got', async () => {
        await submitEnquiry(
          formData({ email: 'ravi@clinic.example' }),
          request(),
          deps(database.db),
        );
        await submitEnquiry(
          formData({ email: 'ravi@clinic.example' }, { honeypot: 'x' }),
          request(),
          deps(database.db),
        );
        const erased = await database.db.transaction((tx) =>
          holder.erase!(tx, 'RAVI@clinic.example', new Date()),
        );
        expect(erased.counts).toEqual({ enquiries: 2 });
        expect(erased.sharedReferences).toHaveLength(1);
        expect(await holder.count!(database.db, 'ravi@clinic.example')).toEqual({ enquiries: 0 });
      });
    },
  );
}
