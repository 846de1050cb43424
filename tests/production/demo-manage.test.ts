import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@test/enquiry';
import { freePort, startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import {
  axeViolations,
  axeViolationsWithoutScripts,
  demoServerEnv,
  requestAndBook,
  openPicker,
} from '@test/demo-booking';
import { startProductionServer, type ProductionServer } from '@test/next-server';

/**
 * axe's violations on the page at 1280 and 375 px, one line each (without JavaScript, of its HTML
 * with scripts removed: axeViolationsWithoutScripts); saves a full-page screenshot of each width
 * into `SCREENSHOT_DIR` when that is set; ends at `endWidth`.
 */
async function checkWidths(
  page: Page,
  name: string,
  endWidth: number,
  javaScript: boolean,
): Promise<string[]> {
  const found: string[] = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const violations = javaScript ? axeViolations : axeViolationsWithoutScripts;
    found.push(...(await violations(page, `${width}px`)));
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({
        path: path.join(process.env.SCREENSHOT_DIR, `${name}-${width}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize({ width: endWidth, height: 800 });
  return found;
}

const istTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kolkata',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/** The calendar part of an e-mail as ical.js reads it: METHOD, SEQUENCE, UID and DTSTART (UTC). */
function calendarOf(mail: ReceivedMail) {
  const part = mail.parsed.attachments.find((item) => item.mimeType === 'text/calendar')!;
  const text =
    typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  return {
    method: calendar.getFirstPropertyValue('method'),
    sequence: event.sequence,
    uid: event.uid,
    start: event.startDate.toJSDate().toISOString(),
  };
}

describe('rescheduling and cancelling a demo from the e-mailed link, production build', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-manage-'));
    const port = await freePort();
    server = await startProductionServer({
      port,
      env: { ...demoServerEnv(dataDir, smtp.url, 50), SITE_URL: `http://127.0.0.1:${port}` },
      readyPath: '/api/health',
    });
    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The e-mails to `address` whose subject starts with `prefix`, once there are `count`. */
  async function mailsTo(address: string, prefix: string, count = 1): Promise<ReceivedMail[]> {
    const matching = () =>
      smtp.received.filter(
        (mail) => mail.envelope.to.includes(address) && mail.parsed.subject?.startsWith(prefix),
      );
    await until(async () => matching().length >= count, 60_000);
    return matching();
  }

  /**
   * Requests a demo as `email` (last name `lastName`) and books the first offered time without
   * JavaScript (as demo-booking.test.ts does); returns the booked start and the manage link of the
   * invitation.
   */
  async function bookAndReadLink(
    email: string,
    lastName = 'Rao',
  ): Promise<{ start: string; link: string }> {
    const { start } = await requestAndBook(server.url, { email, lastName });
    const [invitation] = await mailsTo(email, 'Your Nirmaya HIMS demo');
    const link = /To pick another time or cancel, open: (\S+)/.exec(
      invitation!.parsed.text ?? '',
    )![1]!;
    expect(link.startsWith(`${server.url}/contact-us/demo/manage?token=m1.`)).toBe(true);
    return { start, link };
  }

  for (const [javaScript, width] of [
    [false, 375],
    [false, 1280],
    [true, 375],
    [true, 1280],
  ] as const) {
    it(`JavaScript ${javaScript ? 'on' : 'off'}, ${width} px, New York: the e-mailed link reschedules, then cancels`, async () => {
      const email = `manage-${javaScript ? 'js' : 'nojs'}-${width}@hospital.example`;
      const { start, link } = await bookAndReadLink(email);
      const context = await browser.newContext({
        javaScriptEnabled: javaScript,
        timezoneId: 'America/New_York',
        locale: 'en-US',
        viewport: { width, height: 800 },
      });
      const page = await context.newPage();
      const response = await page.goto(link);
      expect(response!.status()).toBe(200);
      // The token went into a cookie on the way: the 303 set it, the address bar has no query.
      const exchange = await response!.request().redirectedFrom()!.response();
      expect(exchange!.status()).toBe(303);
      expect(await exchange!.headerValue('set-cookie')).toMatch(/^nirmaya-demo-manage=m1\./);
      expect(page.url()).toBe(`${server.url}/contact-us/demo/manage`);
      const [cookie] = await context.cookies(server.url + '/contact-us/demo/manage');
      expect(cookie).toMatchObject({
        name: 'nirmaya-demo-manage',
        value: new URL(link).searchParams.get('token'),
        httpOnly: true,
        sameSite: 'Strict',
        path: '/contact-us/demo/manage',
        secure: false, // SITE_URL is http://127.0.0.1 here
      });
      expect(await response!.headerValue('referrer-policy')).toBe('strict-origin');
      expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe(
        'strict-origin',
      );
      expect(await page.content()).not.toContain('m1.');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain(
        'noindex',
      );
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your demo');
      expect(await page.getByTestId('managed-time').textContent()).toContain(
        `${istTime(start)} IST`,
      );
      if (javaScript) {
        await expect
          .poll(() => page.getByTestId('visitor-time').textContent(), { timeout: 30_000 })
          .toMatch(/E[SD]T/);
      }
      const name = `demo-manage-${javaScript ? 'js' : 'nojs'}`;
      expect(await checkWidths(page, name, width, javaScript)).toEqual([]);

      // Pick another time: the last one offered (with JavaScript, of the picker's first day,
      // once the picker has replaced the plain form).
      if (javaScript) await openPicker(page);
      const radios = page.getByRole('radio');
      const next = (await radios.last().getAttribute('value'))!;
      await radios.last().check();
      await page.getByRole('button', { name: 'Move my demo to this time' }).click();
      await page.waitForURL(/outcome=rescheduled/, { timeout: 30_000 });
      expect(page.url()).toBe(`${server.url}/contact-us/demo/manage?outcome=rescheduled`);
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Your demo has moved' }).count(), {
          timeout: 30_000,
        })
        .toBe(1);
      await expect
        .poll(() => page.getByTestId('managed-time').textContent(), { timeout: 30_000 })
        .toContain(`${istTime(next)} IST`);
      const [updated] = await mailsTo(email, 'Updated: Your Nirmaya HIMS demo');
      const request = calendarOf(updated!);
      expect(request).toMatchObject({
        method: 'REQUEST',
        sequence: 1,
        start: new Date(next).toISOString(),
      });
      // The link in the updated invitation is the same link.
      expect(updated!.parsed.text).toContain(link);

      // Cancel.
      await page.getByRole('button', { name: 'Cancel my demo' }).click();
      await page.waitForURL(/outcome=cancelled/, { timeout: 30_000 });
      expect(page.url()).toBe(`${server.url}/contact-us/demo/manage?outcome=cancelled`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
        .toBe('Your demo is cancelled');
      await expect.poll(() => page.title(), { timeout: 10_000 }).not.toBe('');
      expect(await checkWidths(page, `${name}-cancelled`, width, javaScript)).toEqual([]);
      const [cancellation] = await mailsTo(email, 'Cancelled: your Nirmaya HIMS demo');
      expect(calendarOf(cancellation!)).toMatchObject({
        method: 'CANCEL',
        sequence: 2,
        uid: request.uid,
        start: new Date(next).toISOString(),
      });
      await mailsTo('leads@nirmaya.example', 'Cancelled: demo', javaScript ? 2 : 1);
      console.log(
        `JavaScript ${javaScript ? 'on' : 'off'} at ${width} px: booked ${start}, moved to ${next} (SEQUENCE 1), cancelled (SEQUENCE 2); ${smtp.received.length} e-mails so far`,
      );
      await context.close();
    });
  }
  it('exchanges the link for a cookie over plain HTTP: 303 without the token, HttpOnly, SameSite=Strict, path-scoped; neither shows "not valid"', async () => {
    const { link } = await bookAndReadLink('manage-http@hospital.example');
    const exchange = await fetch(link, { redirect: 'manual' });
    expect(exchange.status).toBe(303);
    expect(exchange.headers.get('location')).toBe('/contact-us/demo/manage');
    expect(exchange.headers.get('cache-control')).toBe('no-store');
    const cookie = exchange.headers.get('set-cookie')!;
    expect(cookie).toContain(`nirmaya-demo-manage=${new URL(link).searchParams.get('token')}`);
    expect(cookie).toMatch(/; Path=\/contact-us\/demo\/manage(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=strict(;|$)/i);
    expect(cookie).not.toMatch(/Secure/i);

    const clean = await fetch(`${server.url}/contact-us/demo/manage`, {
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(clean.headers.get('referrer-policy')).toBe('strict-origin');
    const html = await clean.text();
    expect(html).toContain('Move my demo to this time');
    expect(html).not.toContain('m1.');

    const neither = await (await fetch(`${server.url}/contact-us/demo/manage`)).text();
    expect(neither).toContain('This link is not valid');
    // Another site's navigation without the cookie: a page that reloads itself, no script.
    const handOver = await (
      await fetch(`${server.url}/contact-us/demo/manage`, {
        headers: { 'sec-fetch-site': 'cross-site' },
      })
    ).text();
    expect(handOver).toContain(
      '<meta http-equiv="refresh" content="0;url=/contact-us/demo/manage">',
    );
    expect(handOver).not.toContain('<script');
  });

  it('opens from a link another site shows (a webmail tab): the page reloads itself once so the strict cookie goes along', async () => {
    const { link } = await bookAndReadLink('manage-webmail@hospital.example');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const documents: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'document')
        documents.push(`${response.status()} ${response.url().replace(server.url, '')}`);
    });
    await page.setContent(`<a href="${link.replace(/&/g, '&amp;')}">Manage your demo</a>`);
    await page.getByRole('link', { name: 'Manage your demo' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
      .toBe('Your demo');
    expect(page.url()).toBe(`${server.url}/contact-us/demo/manage`);
    // The exchange, the hand-over page (the cookie withheld on another site's navigation), the page.
    expect(documents.map((line) => line.replace(/token=[^&]+/, 'token=…'))).toEqual([
      '303 /contact-us/demo/manage?token=…',
      '200 /contact-us/demo/manage',
      '200 /contact-us/demo/manage',
    ]);
    await context.close();
  });

  it('keeps an injected last name out of the invitation parameters: ical.js finds only the site’s PARTSTAT on the attendee', async () => {
    const email = 'manage-inject@hospital.example';
    await bookAndReadLink(email, 'x";PARTSTAT=ACCEPTED;X="');
    const isInvitation = (mail: ReceivedMail) =>
      mail.parsed.attachments.some((item) => item.mimeType === 'text/calendar') &&
      (mail.envelope.to.includes(email) || Boolean(mail.parsed.text?.includes(email)));
    // The visitor's invitation and the host's (copied to LEADS_TO).
    await until(async () => smtp.received.filter(isInvitation).length >= 2, 60_000);
    const invitations = smtp.received.filter(isInvitation);
    expect(invitations.length).toBeGreaterThanOrEqual(2);
    for (const mail of invitations) {
      const part = mail.parsed.attachments.find((item) => item.mimeType === 'text/calendar')!;
      const text =
        typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
      const vevent = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent(
        'vevent',
      )!;
      const attendee = vevent
        .getAllProperties('attendee')
        .find((property) => String(property.getFirstValue()).toLowerCase() === `mailto:${email}`)!;
      const parameters = attendee.toJSON()[1] as Record<string, unknown>;
      expect(parameters.partstat).toBe('NEEDS-ACTION');
      // The host's copy names the visitor; the visitor's own carries nothing typed.
      if (mail.envelope.to.includes(email)) {
        expect(Object.keys(parameters).sort()).toEqual(['partstat', 'role', 'rsvp']);
      } else {
        expect(Object.keys(parameters).sort()).toEqual(['cn', 'partstat', 'role', 'rsvp']);
        expect(parameters.cn).toBe('Asha x;PARTSTAT=ACCEPTED;X=');
      }
    }
  });
});
