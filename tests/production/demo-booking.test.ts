import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenInputs } from '@test/contact-form';
import { until } from '@test/enquiry';
import { backdateFormToken } from '@test/form-token';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import {
  axeViolations,
  bookTime,
  demoServerEnv,
  invitedStart,
  offeredStarts,
  requestDemo,
  openPicker,
} from '@test/demo-booking';
import { startProductionServer, type ProductionServer } from '@test/next-server';

const enquiry = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@hospital.example',
  organization: 'City General Hospital',
  subject: 'Request a demo of Nirmaya HIMS',
  message: '',
};

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

/**
 * Runs axe on the page at 1280 and 375 px and returns its violations, one line each; saves a
 * full-page screenshot of each width into `SCREENSHOT_DIR` when that is set (for review).
 */
async function checkWidths(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    found.push(...(await axeViolations(page, `${width}px`)));
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({
        path: path.join(process.env.SCREENSHOT_DIR, `${name}-${width}.png`),
        fullPage: true,
      });
    }
  }
  return found;
}

describe('demo booking from the production build', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-demo-'));
    server = await startProductionServer({
      env: demoServerEnv(dataDir, smtp.url, 20),
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('without JavaScript: a demo request offers times as radio buttons, books one and sends the invitations', async () => {
    const html = await requestDemo(server.url, { email: enquiry.email });
    expect(html).toContain('Pick a time for your demo');
    const starts = offeredStarts(html);
    expect(starts.length).toBeGreaterThan(10);
    expect(html).toMatch(/<legend[^>]*>[A-Z][a-z]+day, \d{1,2} [A-Z][a-z]+ 20\d\d<\/legend>/);
    expect(html).toMatch(/\d\d:\d\d IST/);

    const booked = await bookTime(server.url, html, starts[0]!);
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toMatch(/\/contact-us\/demo$/);
    const cookie = booked.headers.get('set-cookie')!.split(';')[0]!;
    expect(booked.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const confirmation = await (
      await fetch(`${server.url}/contact-us/demo`, { headers: { cookie } })
    ).text();
    expect(confirmation).toContain('Your demo is booked');
    const istTime = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(starts[0]!));
    expect(confirmation).toContain(`${istTime} IST`);

    expect(await invitedStart(smtp, enquiry.email)).toBe(new Date(starts[0]!).toISOString());
    await until(async () => smtp.received.length >= 3, 60_000);
    console.log(
      `no JavaScript: ${starts.length} times offered, booked ${starts[0]} (${istTime} IST); ${smtp.received.length} e-mails (enquiry, two invitations)`,
    );
  });

  it('with JavaScript in New York: a plain enquiry offers "Book a call with our team" and confirms in the visitor’s zone', async () => {
    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
    const context = await browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/contact-us`);
    for (const [name, value] of Object.entries({
      ...enquiry,
      email: 'ravi@clinic.example',
      subject: 'Pricing',
    })) {
      await page.locator(`[name="${name}"]`).fill(value);
    }
    await backdateFormToken(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Book a call with our team' }).count(), {
        timeout: 30_000,
      })
      .toBe(1);
    // With JavaScript the picker replaces the plain times once its chunk has loaded.
    await openPicker(page);
    expect(await checkWidths(page, 'booking-step')).toEqual([]);
    const first = page.getByRole('radio').first();
    const start = (await first.getAttribute('value'))!;
    await first.check();
    // A post the network loses is told in the form, not with the error page.
    const posts = (url: URL) => url.pathname === '/contact-us';
    await page.route(posts, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByRole('button', { name: 'Book this time' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'the connection failed' });
    await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(1);
    await page.unroute(posts);
    await first.check();
    await page.getByRole('button', { name: 'Book this time' }).click();
    await page.waitForURL('**/contact-us/demo', { timeout: 30_000 });
    await expect
      .poll(() => page.getByTestId('visitor-time').textContent(), { timeout: 30_000 })
      .toContain(
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'America/New_York',
          hour: '2-digit',
          minute: '2-digit',
          timeZoneName: 'short',
        })
          .format(new Date(start))
          .replace(/^0/, ''),
      );
    // After a client-side navigation Next.js sets the page's title a moment later: axe waits for it.
    await expect.poll(() => page.title(), { timeout: 10_000 }).not.toBe('');
    expect(await checkWidths(page, 'booking-confirmed')).toEqual([]);
    console.log(
      `JavaScript, New York: ${await page.getByTestId('booked-time').textContent()} / ${await page.getByTestId('visitor-time').textContent()}`,
    );
    await context.close();
  });

  it('without JavaScript: the third visitor for a time both hosts took sees it gone and fresh times', async () => {
    const pages = [
      await requestDemo(server.url, { email: 'first@clinic.example' }),
      await requestDemo(server.url, { email: 'second@clinic.example' }),
      await requestDemo(server.url, { email: 'third@clinic.example' }),
    ];
    const time = offeredStarts(pages[2]!).at(-1)!;
    const answers = [];
    for (const html of pages) answers.push(await bookTime(server.url, html, time));
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303]);
    expect(
      answers.map((answer) => answer.headers.get('location')!.replace(/^.*\/contact-us/, '')),
    ).toEqual(['/demo', '/demo', '/demo?outcome=gone']);
    const cookie = answers[2]!.headers.get('set-cookie')!.split(';')[0]!;
    const again = await (
      await fetch(`${server.url}/contact-us/demo?outcome=gone`, { headers: { cookie } })
    ).text();
    expect(again).toContain('Sorry, that time was just taken. Please pick another.');
    expect(offeredStarts(again).length).toBeGreaterThan(0);
    expect(offeredStarts(again)).not.toContain(time);
    console.log(
      `slot gone: ${time} booked twice, the third visitor got ${offeredStarts(again).length} fresh times`,
    );
  });

  it('limits booking posts per client like the form: past RATE_LIMIT_MAX, a notice instead of a booking', async () => {
    const html = await requestDemo(server.url, { email: 'fourth@clinic.example' });
    const bogus = hiddenInputs(html).map(([name, value]): [string, string] => [
      name,
      name === 'token' ? 'b1.x.y.z' : value,
    ]);
    const locations: string[] = [];
    for (let i = 0; i < 25 && !locations.at(-1)?.includes('outcome=limited'); i++) {
      const answer = await fetch(`${server.url}/contact-us`, {
        method: 'POST',
        body: form([...bogus, ['start', offeredStarts(html)[0]!]]),
        headers: { origin: server.url },
        redirect: 'manual',
      });
      locations.push(answer.headers.get('location') ?? String(answer.status));
    }
    // The chosen time comes back as `start`, so the form keeps it.
    expect(locations.at(-1)).toMatch(/\/contact-us\/demo\?outcome=limited&start=/);
    expect(
      locations.slice(0, -1).every((location) => location.includes('outcome=invalid&start=')),
    ).toBe(true);
    console.log(`booking limit: ${locations.length - 1} refused posts before the limit`);
  });
});
