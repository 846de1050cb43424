import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingNotices } from '@/content/demo-booking';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import {
  bookTime,
  demoServerEnv,
  demoVisitor,
  offeredStarts,
  requestDemo,
  openPicker,
} from '@test/demo-booking';
import { backdateFormToken } from '@test/form-token';
import { startProductionServer, type ProductionServer } from '@test/next-server';

/** The sentence as the page's HTML carries it (React escapes `&`, `<`, `>`, `"` and `'`). */
const asHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

describe('demo booking caps from the production build', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-demo-caps-'));
    server = await startProductionServer({
      env: { ...demoServerEnv(dataDir, smtp.url, 50), DEMO_MAX_PER_CLIENT: '2' },
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * Books `start` with the booking form of the confirmation `html` as a plain POST, then opens
   * where it redirects with the booking cookie: the redirect's location and the page's HTML.
   */
  async function book(html: string, start: string) {
    const posted = await bookTime(server.url, html, start);
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location')!;
    const cookie = posted.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(new URL(location, server.url), { headers: { cookie } });
    expect(page.status).toBe(200);
    return { location, html: await page.text() };
  }
  /** Whether the radio button of `start` is ticked in `html`. */
  const ticked = (html: string, start: string) =>
    new RegExp(
      `<input[^>]*value="${start}"[^>]*checked|<input[^>]*checked[^>]*value="${start}"`,
    ).test(html);

  it('without confirmation: a second demo of one e-mail address and a third of one client address are refused with one sentence (naming no time), the form and the chosen time kept', async () => {
    const first = await requestDemo(server.url, { email: 'asha.rao@hospital.example' });
    const starts = offeredStarts(first);
    expect(starts.length).toBeGreaterThan(6);
    const booked = await book(first, starts[0]!);
    expect(booked.location).toMatch(/\/contact-us\/demo$/);
    expect(booked.html).toContain('Your demo is booked');

    const again = await book(
      await requestDemo(server.url, { email: 'Asha.Rao@hospital.example' }),
      starts[2]!,
    );
    expect(again.location).toContain('outcome=capped');
    // Without confirmation by e-mail: one sentence for both caps, never the demo's day or time.
    const sentence = bookingNotices.capped!;
    expect(again.html).toContain(asHtml(sentence));
    // The times offered may include that one (another host is free then): the notice names none.
    expect(sentence).not.toMatch(/\d|IST|day,/);
    expect(again.html).toContain('Pick a time for your demo');
    expect(ticked(again.html, starts[2]!)).toBe(true);

    const colleague = await book(
      await requestDemo(server.url, { email: 'ravi@hospital.example' }),
      starts[4]!,
    );
    expect(colleague.html).toContain('Your demo is booked');

    const third = await book(
      await requestDemo(server.url, { email: 'meena@hospital.example' }),
      starts[6]!,
    );
    expect(third.location).toContain('outcome=capped');
    expect(third.html).toContain(asHtml(sentence));
    expect(third.html).toContain('Pick a time for your demo');
    expect(ticked(third.html, starts[6]!)).toBe(true);
    console.log(
      `production, no JavaScript: booked ${starts[0]}; same e-mail refused: "${sentence}"; second client demo booked; third refused with the same sentence`,
    );
  });

  it('with JavaScript: the cap sentence shows above the picker, the chosen time kept', async () => {
    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
    const page = await browser.newPage();
    await page.goto(`${server.url}/contact-us?subject=demo`);
    for (const [name, value] of Object.entries({
      ...demoVisitor,
      email: 'ASHA.RAO@hospital.example',
    }))
      await page.locator(`[name="${name}"]`).fill(value);
    await backdateFormToken(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await openPicker(page);
    // The picker shows the first offered day's times in the browser's zone; late in that day it
    // has one time left, so the last one is chosen (the second would not always exist).
    const radio = page.locator('input[name="start"]').last();
    expect(await radio.isChecked()).toBe(false);
    await radio.check();
    const chosen = (await radio.getAttribute('value'))!;
    await page.getByRole('button', { name: 'Book this time' }).click();
    await page.waitForURL(/outcome=capped/, { timeout: 30_000 });
    const sentence = bookingNotices.capped!;
    await expect.poll(() => page.locator('p[role="alert"]').textContent()).toBe(sentence);
    await openPicker(page);
    expect(await page.locator('input[name="start"]:checked').getAttribute('value')).toBe(chosen);
    console.log(`production, JavaScript: refused "${sentence}", ${chosen} still chosen`);
  });
});
