import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from '@test/http';
import { formBody, loadForm } from '@test/contact-form';
import {
  loggedLines,
  logLines,
  startProductionServer,
  type ProductionServer,
} from '@test/next-server';

/**
 * What anyone can type into an address or post from another site, against `next start` of the
 * build: prototype keys as query values, percent-escapes that do not decode, a cross-site action
 * post, a reference that is not one. Never a 5xx, never an error line in the log.
 */
describe('what a visitor can type gets the page or a 4xx, never a 500', () => {
  let server: ProductionServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-typed-'));
    server = await startProductionServer({
      env: { DATA_DIR: dataDir, DATABASE_URL: undefined, SMTP_URL: undefined },
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const errorLines = () =>
    logLines(server.output()).filter((line) => typeof line.level === 'number' && line.level >= 50);

  it('answers prototype keys in ?outcome= and ?notice= with the page', async () => {
    const answers: string[] = [];
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      for (const page of [
        `/privacy-requests/confirm?outcome=${key}`,
        `/contact-us/demo/manage?outcome=${key}`,
        `/contact-us/demo?outcome=${key}`,
        `/contact-us/demo/confirm?outcome=${key}`,
        `/admin?notice=${key}`,
        `/admin/sign-in?answer=${key}`,
      ]) {
        const { status } = await httpRequest(`${server.url}${page}`);
        answers.push(`${page} ${status}`);
        expect(status, page).toBeLessThan(500);
      }
    console.log(`prototype keys: ${answers.join('; ')}`);
    const confirm = await httpRequest(`${server.url}/privacy-requests/confirm?outcome=__proto__`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Make a request');
    expect(errorLines()).toEqual([]);
  });

  it('answers a path whose percent-escapes do not decode with 400 (console) or its page', async () => {
    const answers: string[] = [];
    for (const page of ['/admin/%E0%A4%A', '/admin/enquiries/%E0%A4', '/api/%']) {
      const { status, text } = await httpRequest(`${server.url}${page}`);
      answers.push(`${page} ${status}`);
      expect(status, page).toBe(400);
      expect(text).toContain('This request could not be read');
    }
    const pages: Record<string, number> = {
      '/products/%': 200,
      '/%': 404,
      '/privacy-requests/%E0%A4%A': 404,
      '/contact-us/demo/%': 404,
      '/contact-us/demo/manage/%G1': 404,
    };
    for (const [page, expected] of Object.entries(pages)) {
      const { status } = await httpRequest(`${server.url}${page}`);
      answers.push(`${page} ${status}`);
      expect(status, page).toBe(expected);
    }
    console.log(`bad percent-encoding: ${answers.join('; ')}`);
    expect(errorLines()).toEqual([]);
  });

  it('refuses a server-action post from another site with 403, logging no error', async () => {
    const form = await loadForm(server.url);
    const descriptor = form.fields.find(({ name }) => name === '$ACTION_1:0')?.value;
    const actionId = (JSON.parse(descriptor ?? '{}') as { id: string }).id;
    const body = new Request('http://x/', { method: 'POST', body: formBody(form, {}) });
    const post = async (origin: string, withHeader: boolean) =>
      httpRequest(`${server.url}/contact-us`, {
        method: 'POST',
        headers: {
          origin,
          'content-type': body.headers.get('content-type')!,
          ...(withHeader ? { 'next-action': actionId } : {}),
        },
        body: Buffer.from(await body.clone().arrayBuffer()),
      });
    const withHeader = await post('https://evil.example', true);
    const withoutHeader = await post('https://evil.example', false);
    console.log(
      `cross-site action post: with Next-Action ${withHeader.status}, as a plain form ${withoutHeader.status}`,
    );
    expect(withHeader.status).toBe(403);
    expect(withoutHeader.status).toBe(403);
    expect(withHeader.text).toContain('This form was sent from another site');
    const refusals = await loggedLines(server, ({ reason }) => reason === 'cross-site', 2);
    expect(refusals).toHaveLength(2);
    expect(errorLines()).toEqual([]);
  });

  it('prints a reference only when it has the form of one', async () => {
    const shown = await httpRequest(
      `${server.url}/privacy-requests/confirm?outcome=confirmed&reference=PR-7K3P9QXD2M`,
    );
    expect(shown.text).toContain('PR-7K3P9QXD2M');
    const text = 'Call +91 555 0100 to claim your refund';
    const hidden = await httpRequest(
      `${server.url}/privacy-requests/confirm?outcome=confirmed&reference=${encodeURIComponent(text)}`,
    );
    expect(hidden.status).toBe(200);
    expect(hidden.text).not.toContain('claim your refund');
    expect(hidden.text).not.toContain('Your reference is');
  });
});
