import '@test/quiet-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { meera, testBookingSettings } from '@test/demo-settings';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { LEADS_TO, TEST_SECRET, deps, formData, freshToken, request } from '@test/enquiry';
import { mailsTo as mailsToOf, settle, siteWorker } from '@test/site-worker';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { submitEnquiry } from '../features/contact/submit';
import { firstAddresses, leads } from '../features/contact/schema';
import { bookDemo } from '../features/demos/commands/book';
import { confirmHold } from '../features/demos/commands/confirm';
import { correctHeldAddress } from '../features/demos/commands/re-request';
import { verifyConfirmToken } from '../features/demos/tokens';
import { askForPrivacyLink } from '../features/privacy/ask';
import { confirmPrivacyRequest } from '../features/privacy/confirm';

/**
 * A corrected address keeps its rights, and only its own: after a visitor corrects the address of
 * an enquiry, the first address's owner gets a copy of what was shared under it (the enquiry as
 * sent, not the corrector's later demo) and can have only that erased; `suppressed` follows the
 * new address. The site's job wiring, a real SMTP server, both databases.
 */

const hour = 3_600_000;
const WEBHOOK_SECRET = `whsec_${Buffer.from('corrected-address-webhook-secret').toString('base64')}`;
let receiver: TestWebhookReceiver;
const settings = () =>
  testBookingSettings({
    hosts: [meera],
    confirmEmail: true,
    secret: TEST_SECRET,
    rules: { bookingDays: 5 },
    webhookUrls: [receiver.url],
  });

/** A bookable time `days` ahead at 10:00 IST (04:30Z) plus `hours`, inside the test rules. */
function demoTime(days: number, hours = 0): number {
  const day = new Date(Date.now() + days * 24 * hour);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 30) + hours * hour;
}

/** The token of the link in a privacy or demo confirmation e-mail (`path`'s). */
function tokenOf(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`${path}\\?token=([^\\s&]+)`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error('no link in the e-mail');
  return decodeURIComponent(match[1]!);
}

/** The JSON attachment of a copy e-mail. */
function copyOf(mail: ReceivedMail) {
  const attachment = mail.parsed.attachments.find((part) => part.filename === 'your-data.json')!;
  return JSON.parse(
    typeof attachment.content === 'string'
      ? attachment.content
      : new TextDecoder().decode(attachment.content),
  ) as {
    enquiries: { reference: string; email: string; firstName: string }[];
    demos: { status: string }[];
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('a corrected address keeps its rights, and only its own', backend),
    () => {
      let database: TestDatabase;
      let smtp: TestSmtpServer;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        smtp = await startSmtpServer();
        receiver = await startWebhookReceiver();
      });
      afterAll(async () => {
        await receiver?.close();
        await smtp?.close();
        await database?.dispose();
      });

      const mailsTo = (address: string) => mailsToOf(smtp, address);
      const drain = async () => {
        const worker = siteWorker(database, smtp, {
          WEBHOOK_URLS: receiver.url,
          WEBHOOK_SECRET,
          // Room for every request these tests make from one client.
          UNPROVEN_MAIL_PER_ADDRESS: '9',
          UNPROVEN_MAIL_PER_CLIENT: '9',
        });
        await settle(worker);
        await worker.stop();
      };
      /** Asks for `kind` as `address` at the privacy form, confirms its link, runs what it queued. */
      async function confirmedRequest(address: string, kind: string): Promise<void> {
        const form = new FormData();
        form.set('email', address);
        form.set('kind', kind);
        form.set('details', '');
        form.set(formTokenField, freshToken());
        form.set(honeypotField, '');
        await askForPrivacyLink(form, request(), {
          db: database.db,
          secret: TEST_SECRET,
          rateLimit: { max: 5, windowMs: 600_000 },
          allowedOrigins: [],
          mailBudget: {
            perAddressPerDay: 9,
            perClientPerDay: 9,
            grievancesPerDay: 9,
            sitePerHour: 200,
          },
        });
        await drain();
        const token = tokenOf(mailsTo(address).at(-1)!, 'privacy-requests/confirm');
        expect(await confirmPrivacyRequest(database.db, token, TEST_SECRET)).toMatchObject({
          outcome: 'confirmed',
        });
        await drain();
      }
      /** An enquiry from `email` with a held demo, its address then corrected to `corrected`. */
      async function correctedEnquiry(email: string, corrected: string, hours: number) {
        const sent = await submitEnquiry(formData({ email }), request(), deps(database.db));
        const [lead] = await database.db
          .select()
          .from(leads)
          .where(eq(leads.reference, (sent as { reference: string }).reference));
        const held = await bookDemo(database.db, settings(), lead!.id, demoTime(2, hours));
        expect(held.outcome).toBe('held');
        expect(
          await correctHeldAddress(database.db, settings(), lead!.id, corrected, Date.now()),
        ).toBe('queued');
        return lead!;
      }

      it('a correction, then a copy for the first address: what it shared only; its erasure removes only its trace', async () => {
        const first = 'asha.rao@hospitl.example';
        const corrected = 'asha.rao@hospital.example';
        const lead = await correctedEnquiry(first, corrected, 0);
        // Sales get a one-line note, the CRM the event (the enquiry was delivered before).
        await drain();
        const note = mailsTo(LEADS_TO).find(
          (mail) => mail.parsed.subject === `Website enquiry ${lead.reference}: address corrected`,
        );
        expect(note?.parsed.text).toContain(`Write to ${corrected} from now on`);
        const hook = receiver.delivered().find((one) => one.body.includes('address_corrected'))!;
        expect(new Webhook(WEBHOOK_SECRET).verify(hook.body, hook.headers)).toMatchObject({
          type: 'enquiry.address_corrected',
          version: 1,
          data: { reference: lead.reference, email: corrected, contactSuppressed: false },
        });
        // The corrector confirms the demo: their later data, never the first address's.
        const confirmToken = tokenOf(mailsTo(corrected).at(-1)!, 'contact-us/demo/confirm');
        expect(
          await confirmHold(
            database.db,
            settings(),
            verifyConfirmToken(confirmToken, TEST_SECRET)!,
          ),
        ).toMatchObject({ outcome: 'confirmed' });

        await confirmedRequest(first, 'copy');
        const shared = copyOf(mailsTo(first).at(-1)!);
        expect(shared.enquiries).toMatchObject([
          { reference: lead.reference, email: first, firstName: 'Asha' },
        ]);
        expect(shared.demos).toEqual([]);
        await confirmedRequest(corrected, 'copy');
        const own = copyOf(mailsTo(corrected).at(-1)!);
        expect(own.enquiries).toMatchObject([{ reference: lead.reference, email: corrected }]);
        // Its booked demo (and the hold the correction replaced).
        expect(own.demos).toEqual(
          expect.arrayContaining([expect.objectContaining({ status: 'booked' })]),
        );

        await confirmedRequest(first, 'erase');
        expect(await database.db.select().from(firstAddresses)).toEqual([]);
        const [kept] = await database.db.select().from(leads).where(eq(leads.id, lead.id));
        expect(kept).toMatchObject({ email: corrected, suppressed: false });
      });

      it('recomputes `suppressed` for the corrected address', async () => {
        // The erasure above suppressed the first address: an enquiry from it is marked, and its
        // correction to an address nobody erased is not any more.
        const lead = await correctedEnquiry(
          'asha.rao@hospitl.example',
          'fresh@hospital.example',
          1,
        );
        expect(lead.suppressed).toBe(true);
        const [after] = await database.db.select().from(leads).where(eq(leads.id, lead.id));
        expect(after).toMatchObject({ email: 'fresh@hospital.example', suppressed: false });
      });
    },
  );
}
