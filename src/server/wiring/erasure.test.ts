import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { deps, formData, request } from '@test/enquiry';
import { ensureAdmins } from '../features/console/operators';
import { submitEnquiry } from '../features/contact/submit';
import { auditLog } from '../platform/audit/schema';
import { jobs } from '../delivery/queue/schema';
import { leads } from '../features/contact/schema';
import { privacyRequests } from '../features/privacy/schema';
import { suppressions } from '../platform/people/schema';
import { getSiteSecret } from '../platform/security/site-secret';
import { addressHash } from '../platform/people/address-hash';
import { eraseAddress } from '../features/privacy/erase';
import { erasePersonOf } from './erasure';
import { leadErasedWebhookJob } from '../features/privacy/webhook';
import { personalData } from './personal-data';

const admin = { email: 'priya@nirmaya.example', role: 'admin' as const };

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle("an admin's erasure from the console", backend),
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
      });
      afterAll(() => database?.dispose());

      it("refuses to erase an operator's address, with the refusal audited and nothing erased", async () => {
        const { db } = database;
        await ensureAdmins(db, ['ops@nirmaya.example']);
        // A stranger typed the operator's address into the contact form.
        await submitEnquiry(formData({ email: 'Ops@Nirmaya.example' }), request(), deps(db));
        const [lead] = await db.select().from(leads).where(eq(leads.email, 'Ops@Nirmaya.example'));
        expect(await erasePersonOf(db, admin, lead!.reference)).toEqual({ outcome: 'operator' });
        const secret = await getSiteSecret(db);
        const hash = addressHash('ops@nirmaya.example', secret);
        expect(
          await db.select().from(suppressions).where(eq(suppressions.emailHash, hash)),
        ).toEqual([]);
        expect(await db.select().from(leads).where(eq(leads.id, lead!.id))).toHaveLength(1);
        const [refusal] = await db
          .select()
          .from(auditLog)
          .where(eq(auditLog.subject, lead!.reference));
        expect(refusal).toMatchObject({ actor: admin.email, action: 'refused' });
        await db.delete(leads);
        await db.delete(auditLog);
      });

      it('erases every enquiry of the address, records a closed request and audits it as the admin', async () => {
        for (const email of ['meena@clinic.example', 'MEENA@clinic.example'])
          await submitEnquiry(formData({ email }), request(), deps(database.db));
        const [first] = await database.db.select().from(leads);
        expect(await erasePersonOf(database.db, admin, 'nh-unknown')).toEqual({
          outcome: 'not-found',
        });
        const result = await erasePersonOf(database.db, admin, first!.reference.toLowerCase());
        expect(result).toMatchObject({ outcome: 'erased', enquiries: 2, demos: 0, cancelled: 0 });
        const { reference } = result as { reference: string };

        expect(await database.db.select().from(leads)).toEqual([]);
        const [tombstone] = await database.db
          .select()
          .from(privacyRequests)
          .where(eq(privacyRequests.reference, reference));
        expect(tombstone).toMatchObject({
          kind: 'erase',
          status: 'closed',
          email: null,
          outcome: 'erased 2 enquiries, 0 demos',
        });
        const secret = await getSiteSecret(database.db);
        expect(await database.db.select().from(suppressions)).toMatchObject([
          { emailHash: addressHash('meena@clinic.example', secret), reason: 'erase' },
        ]);
        const audit = await database.db
          .select({ actor: auditLog.actor, action: auditLog.action, detail: auditLog.detail })
          .from(auditLog)
          .where(eq(auditLog.subject, reference));
        expect(audit).toEqual(
          expect.arrayContaining([
            { actor: admin.email, action: 'privacy-request', detail: 'erase' },
            {
              actor: admin.email,
              action: 'privacy-outcome',
              detail: 'erased 2 enquiries, 0 demos',
            },
          ]),
        );
      });

      it('tells the webhook receivers of the delivered enquiries only, not of quarantined spam they never got', async () => {
        const email = 'ravi@clinic.example';
        await submitEnquiry(formData({ email }), request(), deps(database.db));
        await submitEnquiry(formData({ email }, { honeypot: 'x' }), request(), deps(database.db));
        const held = await database.db.select().from(leads).where(eq(leads.email, email));
        expect(held.map((lead) => lead.verdict).sort()).toEqual(['lead', 'spam']);
        const secret = await getSiteSecret(database.db);
        const result = await eraseAddress(
          database.db,
          {
            secret,
            webhookUrls: ['https://crm.example/hook'],
            holders: personalData({ webhookUrls: ['https://crm.example/hook'] }),
          },
          { email, kind: 'erase', actor: admin },
        );
        expect(result).toMatchObject({ outcome: 'erased', enquiries: 2 });
        const events = await database.db
          .select({ payload: jobs.payload })
          .from(jobs)
          .where(eq(jobs.kind, leadErasedWebhookJob.name));
        const delivered = held.find((lead) => lead.verdict === 'lead')!.reference;
        expect(JSON.stringify(events)).toContain(delivered);
        expect(events).toHaveLength(1);
      });
    },
  );
}
