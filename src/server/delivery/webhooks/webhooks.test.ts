import '@test/quiet-logs';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { z } from 'zod';
import { demoRequestField, sourcePageField } from '@/lib/contact-fields';
import type { Database } from '../../platform/db/client';
import { jobs } from '../queue/schema';
import { leads } from '../../features/contact/schema';
import { rateLimits } from '../../platform/rate-limit/schema';
import { submitEnquiry } from '../../features/contact/submit';
import { describeDeliveries } from '../../features/contact/delivery-summary';
import { listLeads } from '../../features/contact/inbox';
import { retryFailedNotifications } from '../../wiring/delivery-retry';
import type { QueueWorker } from '../queue/worker';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { deps, formData, request, testWorker, until, validValues } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { webhookId } from './sender';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** The documented payload (README, "Webhooks"), checked strictly: no field more, none less. */
const enquiryCreated = z.strictObject({
  type: z.literal('enquiry.created'),
  version: z.literal(1),
  timestamp: z.iso.datetime(),
  data: z.strictObject({
    reference: z.string().regex(/^NH-[0-9A-Z]{10}$/),
    receivedAt: z.iso.datetime(),
    demoRequested: z.boolean(),
    sourcePage: z.string().startsWith('/').nullable(),
    contactSuppressed: z.boolean(),
    source: z.strictObject({
      landingPage: z.string().startsWith('/').nullable(),
      referrerHost: z.string().max(64).nullable(),
      utmSource: z.string().max(64).nullable(),
      utmMedium: z.string().max(64).nullable(),
      utmCampaign: z.string().max(64).nullable(),
    }),
    fields: z.strictObject({
      firstName: z.string(),
      lastName: z.string(),
      email: z.email(),
      organization: z.string(),
      subject: z.string(),
      message: z.string(),
    }),
  }),
});

/** The webhook jobs (enquiry and demo events), as the old `webhook` channel held them. */
const webhookJobs = (db: Database['db']) =>
  db
    .select()
    .from(jobs)
    .where(inArray(jobs.kind, ['enquiry.webhook', 'demo.webhook']));

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('signed webhooks', backend), () => {
    let database: TestDatabase;
    let receiver: TestWebhookReceiver;
    let smtp: TestSmtpServer;
    let worker: QueueWorker | undefined;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      receiver = await startWebhookReceiver();
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await receiver?.close();
      await smtp?.close();
      await database?.dispose();
    });
    beforeEach(async () => {
      // Jobs belong to their enquiry by `owner` only (no foreign key): cleared with the enquiries.
      await database.db.delete(jobs);
      await database.db.delete(leads);
      await database.db.delete(rateLimits);
      receiver.reset();
      smtp.received.length = 0;
    });
    afterEach(async () => {
      await worker?.stop();
      worker = undefined;
    });

    const submit = (data = formData()) =>
      submitEnquiry(
        data,
        request(),
        deps(database.db, { deliveries: { webhookUrls: [receiver.url] } }),
      );
    const webhookWorker = (timeoutMs?: number) =>
      testWorker(database.db, undefined, { secret: SECRET, timeoutMs });

    it('sends a request that verifies with the secret, in the documented schema; a tampered one does not', async () => {
      const data = formData();
      data.set(demoRequestField, '1');
      data.set(sourcePageField, '/solutions/laboratory');
      data.set('landingPage', '/');
      data.set('utmSource', 'Newsletter');
      data.set('utmCampaign', 'winter');
      const state = await submit(data);
      expect(state.status).toBe('accepted');
      expect(await testWorker(database.db, smtp.url, { secret: SECRET }).drain()).toBe(2);

      expect(smtp.received).toHaveLength(1);
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      const payload = enquiryCreated.parse(
        new Webhook(SECRET).verify(request!.body, request!.headers),
      );
      expect(payload.data).toMatchObject({
        reference: state.status === 'accepted' && state.reference,
        demoRequested: true,
        sourcePage: '/solutions/laboratory',
        source: {
          landingPage: '/',
          referrerHost: null,
          utmSource: 'newsletter',
          utmMedium: null,
          utmCampaign: 'winter',
        },
        fields: validValues,
      });
      expect(request!.body).not.toMatch(/10\.0\.|clientHash|client_hash/);
      const [job] = await webhookJobs(database.db);
      expect(request!.headers['webhook-id']).toBe(webhookId(job!.id));

      const tampered = request!.body.replace('Asha', 'Usha');
      expect(() => new Webhook(SECRET).verify(tampered, request!.headers)).toThrow(
        WebhookVerificationError,
      );
      const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
      expect(() => new Webhook(otherSecret).verify(request!.body, request!.headers)).toThrow(
        WebhookVerificationError,
      );
      const [lead] = await listLeads(database.db);
      expect(describeDeliveries(lead!.deliveries)).toBe('email sent; webhook sent');
      console.log(
        `[${backend.kind}] received and verified:\n${JSON.stringify(
          { headers: request!.headers, body: JSON.parse(request!.body) as unknown },
          null,
          2,
        )}`,
      );
    });

    it('drops forged context fields without troubling the visitor', async () => {
      const data = formData();
      data.set(demoRequestField, 'yes');
      data.set(sourcePageField, 'https://evil.example/phish?x=1');
      expect((await submit(data)).status).toBe('accepted');
      await webhookWorker().drain();
      const payload = enquiryCreated.parse(JSON.parse(receiver.received[0]!.body));
      expect(payload.data).toMatchObject({ demoRequested: false, sourcePage: null });
    });

    it('delivers once after the endpoint was down, with the same webhook-id on every attempt', async () => {
      await receiver.close();
      await submit();
      worker = webhookWorker();
      worker.start();
      await until(async () => (await webhookJobs(database.db))[0]!.attempts >= 3);
      const whileDown = (await webhookJobs(database.db))[0]!;
      expect(whileDown.status).not.toBe('failed');
      receiver.reply = (index) => ({ status: index < 2 ? 503 : 200 });
      await receiver.listen();
      await until(async () => (await webhookJobs(database.db))[0]!.status === 'sent');
      await worker.drain(); // the polling round that sent it may still be finishing
      expect(await worker.drain()).toBe(0);

      const [job] = await webhookJobs(database.db);
      expect(receiver.delivered()).toHaveLength(1);
      expect(receiver.received.map((request) => request.status)).toEqual([503, 503, 200]);
      expect(new Set(receiver.received.map((request) => request.headers['webhook-id']))).toEqual(
        new Set([webhookId(job!.id)]),
      );
      console.log(
        `[${backend.kind}] endpoint down for ${whileDown.attempts} attempts (last error ${whileDown.lastError}), then 503, 503, 200: ` +
          `${job!.attempts} attempts, ${receiver.received.length} requests, 1 webhook-id, delivered ${receiver.delivered().length} time`,
      );
    });

    it('waits at least Retry-After after a 429', async () => {
      receiver.reply = (index) =>
        index === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 };
      await submit();
      worker = webhookWorker();
      worker.start();
      await until(async () => (await webhookJobs(database.db))[0]!.status === 'sent');
      const [first, second] = receiver.received;
      const gap = second!.at - first!.at;
      expect(gap).toBeGreaterThanOrEqual(2_000);
      expect(receiver.received).toHaveLength(2);
      console.log(
        `[${backend.kind}] 429 with Retry-After: 2 -> next attempt ${gap} ms later (backoff alone: 20 ms)`,
      );
    });

    it('marks a 410 failed, shows it in the list, and re-sends on leads retry', async () => {
      receiver.reply = () => ({ status: 410 });
      await submit();
      await webhookWorker().drain();
      expect((await webhookJobs(database.db))[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'HTTP 410',
      });
      const [lead] = await listLeads(database.db);
      expect(describeDeliveries(lead!.deliveries)).toBe('email pending; webhook failed (HTTP 410)');

      receiver.reply = () => ({ status: 200 });
      expect(await retryFailedNotifications(database.db)).toBe(1);
      await webhookWorker().drain();
      expect((await webhookJobs(database.db))[0]).toMatchObject({ status: 'sent' });
      expect(receiver.received.map((request) => request.status)).toEqual([410, 200]);
      expect(receiver.received[0]!.headers['webhook-id']).toBe(
        receiver.received[1]!.headers['webhook-id'],
      );
      console.log(
        `[${backend.kind}] 410: ${describeDeliveries(lead!.deliveries)}; after leads retry: delivered`,
      );
    });

    it('does not follow redirects and retries an endpoint that does not answer in time', async () => {
      receiver.reply = () => ({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
      await submit();
      await webhookWorker().drain();
      expect((await webhookJobs(database.db))[0]).toMatchObject({
        status: 'failed',
        lastError: 'HTTP 302 (redirect not followed)',
      });
      expect(receiver.received.map((request) => request.path)).toEqual(['/hook']);

      await database.db.delete(jobs);
      await database.db.delete(leads);
      receiver.reset();
      receiver.reply = (index) => ({ status: 200, delayMs: index === 0 ? 2_000 : 0 });
      await submit();
      worker = webhookWorker(300);
      worker.start();
      await until(async () => (await webhookJobs(database.db))[0]!.status === 'sent');
      const [job] = await webhookJobs(database.db);
      expect(job!.attempts).toBeGreaterThanOrEqual(2);
      expect(job!.lastError).toBeNull();
      console.log(
        `[${backend.kind}] 302 not followed (failed); 2 s answer with a 300 ms timeout: sent after ${job!.attempts} attempts`,
      );
    });

    it('sends nothing for spam and invalid submissions', async () => {
      const url = { deliveries: { webhookUrls: [receiver.url] } };
      const states = await Promise.all([
        submitEnquiry(
          formData({}, { honeypot: 'http://spam.example' }),
          request(),
          deps(database.db, url),
        ),
        submitEnquiry(formData({}, { token: null }), request(), deps(database.db, url)),
        submitEnquiry(formData({}, { token: 'forged.token' }), request(), deps(database.db, url)),
        submitEnquiry(formData({ email: 'not-an-address' }), request(), deps(database.db, url)),
        submitEnquiry(
          formData(),
          { ...request(), origin: 'https://evil.example' },
          deps(database.db, url),
        ),
      ]);
      expect(states.map((state) => state.status)).toEqual([
        'accepted',
        'accepted',
        'accepted',
        'invalid',
        'invalid',
      ]);
      await webhookWorker().drain();
      expect(await webhookJobs(database.db)).toHaveLength(0);
      expect(receiver.received).toHaveLength(0);
      console.log(
        `[${backend.kind}] 3 bot and 2 invalid submissions: 0 webhook jobs, 0 requests received`,
      );
    });
  });
}

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

describe.skipIf(postgres.skipReason)(backendTitle('two workers, two endpoints', postgres), () => {
  let database: TestDatabase;
  let second: Database;
  let endpoints: TestWebhookReceiver[];
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    second = await openSecondHandle(database.url!);
    endpoints = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await Promise.all((endpoints ?? []).map((endpoint) => endpoint.close()));
    await second?.close();
    await database?.dispose();
  });

  it('delivers each lead to each endpoint exactly once', async () => {
    const webhookUrls = endpoints.map((endpoint) => endpoint.url);
    const states = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        submitEnquiry(
          formData({ subject: `Lead ${i}` }),
          request(),
          deps(database.db, { deliveries: { webhookUrls } }),
        ),
      ),
    );
    const references = states.map((state) => (state.status === 'accepted' ? state.reference : ''));
    const workers = [database.db, second.db].map((db) =>
      testWorker(db, undefined, { secret: SECRET }),
    );
    const handled = await Promise.all(workers.map((worker) => worker.drain()));
    expect(handled[0]! + handled[1]!).toBe(100);

    for (const endpoint of endpoints) {
      const received = endpoint.received.map((request) =>
        enquiryCreated.parse(new Webhook(SECRET).verify(request.body, request.headers)),
      );
      expect(received.map((event) => event.data.reference).sort()).toEqual([...references].sort());
      expect(new Set(endpoint.received.map((request) => request.headers['webhook-id'])).size).toBe(
        50,
      );
    }
    const total = endpoints.reduce((sum, endpoint) => sum + endpoint.received.length, 0);
    const distinct = new Set(
      endpoints.flatMap((endpoint) =>
        endpoint.received.map((request) => request.headers['webhook-id']),
      ),
    ).size;
    console.log(
      `50 leads x 2 endpoints: ${total} received, ${total - distinct} duplicated (worker 1 sent ${handled[0]}, worker 2 sent ${handled[1]})`,
    );
  });
});
