import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { formTokenField, honeypotField } from '@/lib/contact-fields';
import { until } from '@test/enquiry';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { hiddenInputs } from '@test/contact-form';
import { backdatedFormToken } from '@test/form-token';
import { logLines, startProductionServer, type ProductionServer } from '@test/next-server';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

describe('webhooks from the production build', () => {
  let receiver: TestWebhookReceiver;
  let server: ProductionServer;
  let dataDir: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-webhooks-'));
    server = await startProductionServer({
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        SMTP_URL: undefined,
        WEBHOOK_URLS: receiver.url,
        WEBHOOK_SECRET: SECRET,
      },
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('posts a form without JavaScript and delivers it, signed, to a slow endpoint the visitor never waits for', async () => {
    receiver.reply = () => ({ status: 204, delayMs: 8_000 });
    const page = `${server.url}/contact-us?subject=demo`;
    const response = await fetch(page, {
      headers: { referer: `${server.url}/about-us?utm_source=x` },
    });
    const hidden = hiddenInputs(await response.text());
    expect(Object.fromEntries(hidden)).toMatchObject({
      demoRequested: '1',
      sourcePage: '/about-us',
    });

    const form = new FormData();
    // The token backdated past its minimum age: the form may be posted at once.
    for (const [name, value] of hidden)
      form.append(name, name === formTokenField ? backdatedFormToken(value) : value);
    for (const [name, value] of Object.entries({
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha.rao@hospital.example',
      organization: 'City General Hospital',
      subject: 'Request a demo of Nirmaya HIMS',
      message: '',
      [honeypotField]: '',
    }))
      form.append(name, value);
    const started = Date.now();
    const answer = await fetch(page, {
      method: 'POST',
      body: form,
      headers: { origin: server.url },
    });
    const answeredAt = Date.now();
    const reference = /NH-[0-9A-Z]{10}/.exec(await answer.text())?.[0];
    expect(answer.status).toBe(200);
    expect(reference).toBeDefined();

    await until(async () => receiver.received.length > 0).catch((error: unknown) => {
      console.log(server.output());
      throw error;
    });
    const [request] = receiver.received;
    const event = new Webhook(SECRET).verify(request!.body, request!.headers);
    expect(event).toMatchObject({
      type: 'enquiry.created',
      version: 1,
      data: {
        reference,
        demoRequested: true,
        sourcePage: '/about-us',
        fields: { firstName: 'Asha' },
      },
    });
    expect(answeredAt).toBeLessThan(request!.at + 8_000);
    const events = logLines(server.output()).map((line) => line.event);
    expect(events).toEqual(expect.arrayContaining(['webhooks.enabled', 'email.disabled']));
    await until(async () => logLines(server.output()).some((line) => line.event === 'job.sent'));
    console.log(
      `next start with WEBHOOK_URLS: form answered in ${answeredAt - started} ms; ${reference} reached the ` +
        `endpoint ${request!.at - started} ms after the post, which answered 8 s later; signature verified`,
    );
  });
});
