import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { pages as specPages } from '../../e2e/routes';
import {
  axeViolations,
  axeViolationsWithoutScripts,
  demoServerEnv,
  invitedStart,
  watchCspViolations,
} from '@test/demo-booking';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { backdateFormToken } from '@test/form-token';
import { startFramework } from '@test/hydration';

const NEW_YORK = 'America/New_York';
/** Text only the picker's chunk holds: react-day-picker's class prefix and the picker's own label. */
const PICKER_CODE = /rdp-|Choose a day/;

const visitor = {
  firstName: 'Asha',
  lastName: 'Rao',
  organization: 'City General Hospital',
  message: '',
};

/** `HH:MM ZONE` of an instant in a zone, formatted here, independently of the site's code. */
function wallTime(iso: string, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
  const zone = new Intl.DateTimeFormat(timeZone === NEW_YORK ? 'en-US' : 'en-IN', {
    timeZone,
    timeZoneName: 'short',
  })
    .formatToParts(new Date(iso))
    .find((part) => part.type === 'timeZoneName')!.value;
  return `${time} ${zone}`;
}

/** The visitor-time line's date and time for New York, as en-US writes them ("Monday, March 9", "9:30 PM EDT"). */
function newYorkParts(iso: string): string[] {
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: NEW_YORK, ...options }).format(new Date(iso));
  return [
    format({ weekday: 'long', month: 'long', day: 'numeric' }),
    format({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
  ];
}

/** Every JavaScript file the page fetched from the build, with its body, in order. */
function watchScripts(page: Page): Array<{ url: string; body: Promise<string> }> {
  const scripts: Array<{ url: string; body: Promise<string> }> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/_next/static/') && url.pathname.endsWith('.js')) {
      // Chromium drops a response's body once its page has navigated on (a loaded machine reads
      // it too late): the file is immutable, so it is fetched again from the server then.
      const body = response.text().catch(async () => (await fetch(response.url())).text());
      scripts.push({ url: url.pathname, body });
    }
  });
  return scripts;
}

describe('demo booking in Chromium, New York, with and without JavaScript', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-picker-'));
    server = await startProductionServer({
      env: demoServerEnv(dataDir, smtp.url, 20),
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

  it('no page of the specification refers to the picker’s code', async () => {
    for (const { path: pagePath } of specPages) {
      const html = await (await fetch(server.url + pagePath)).text();
      const chunks = new Set(html.match(/\/_next\/static\/chunks\/[^"'\\\s)]+?\.js/g));
      for (const chunk of chunks) {
        expect(await (await fetch(server.url + chunk)).text(), `${pagePath}: ${chunk}`).not.toMatch(
          PICKER_CODE,
        );
      }
      console.log(`${pagePath}: ${chunks.size} scripts, none with the picker`);
    }
  });

  const cases = [
    { javaScript: true, width: 1280 },
    { javaScript: true, width: 375 },
    { javaScript: false, width: 1280 },
    { javaScript: false, width: 375 },
  ];
  it.each(cases.map((entry, index) => ({ ...entry, index, js: entry.javaScript ? 'on' : 'off' })))(
    'JavaScript $js at $width px: "Schedule a Demo", book a time, see it in the right zone',
    async ({ javaScript, width, index }) => {
      const name = `${javaScript ? 'js' : 'nojs'}-${width}`;
      const email = `visitor-${name}@clinic.example`;
      const context = await browser.newContext({
        timezoneId: NEW_YORK,
        locale: 'en-US',
        javaScriptEnabled: javaScript,
        viewport: { width, height: 900 },
      });
      const violations = await watchCspViolations(context);
      const page = await context.newPage();
      const scripts = watchScripts(page);

      // "Schedule a Demo" from a product page leads to the contact form with the demo subject.
      // The framework's scripts come on the visitor's first interaction: each page's are fetched
      // and read (the picker must be in none of them) before the visitor leaves it, or their
      // bodies are gone.
      await page.goto(`${server.url}/products`);
      if (javaScript) await startFramework(page);
      await page.waitForLoadState('networkidle');
      await page.getByRole('main').getByRole('link', { name: 'Schedule a Demo' }).first().click();
      await page.waitForURL(/\/contact-us\?subject=demo$/);
      await page.waitForLoadState('networkidle');
      for (const [field, value] of Object.entries({ ...visitor, email })) {
        await page.locator(`[name="${field}"]`).fill(value);
      }
      // A client-side route change kept the framework running; the form posts through React.
      if (javaScript) await startFramework(page);
      await backdateFormToken(page);
      const firstLoad = scripts.length;
      await page.getByRole('button', { name: 'Submit' }).click();
      await page
        .getByRole('heading', { name: 'Pick a time for your demo' })
        .waitFor({ timeout: 30_000 });

      const found: string[] = [];
      let start: string;
      if (javaScript) {
        // The picker replaces the plain form once its chunk, fetched only on the first interaction
        // with the booking form (here the keyboard reaching its first time), has loaded.
        const grid = page.getByRole('grid');
        await page.waitForLoadState('networkidle');
        expect(await grid.count()).toBe(0);
        await page.locator('input[name="start"]').first().focus();
        await grid.waitFor({ timeout: 30_000 });
        const bodies = await Promise.all(scripts.map(async (script) => script.body));
        const before = bodies.slice(0, firstLoad).filter((body) => PICKER_CODE.test(body));
        expect(before, 'picker code on the first load of /products and /contact-us').toEqual([]);
        const picker = scripts
          .map((script, i) => ({ ...script, text: bodies[i]! }))
          .slice(firstLoad)
          .filter((script) => PICKER_CODE.test(script.text));
        expect(picker.length).toBeGreaterThan(0);
        for (const chunk of picker) {
          console.log(
            `picker chunk ${chunk.url}: ${Buffer.byteLength(chunk.text)} B, gzip ${gzipSync(chunk.text).length} B, brotli ${brotliCompressSync(chunk.text).length} B (fetched after the booking step showed; ${firstLoad} scripts before)`,
          );
        }
        // axe's WCAG 2.2 rules include target-size (24 px); nothing may overflow the viewport.
        found.push(...(await axeViolations(page, `${width}px step`)));
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        if (process.env.SCREENSHOT_DIR) await screenshots(page, `booking-picker`, width);

        // Keyboard: from the chosen day, the arrow key moves to the next offered day, Enter picks it.
        const legend = page.locator('legend', { hasText: 'Times on' });
        const dayBefore = await legend.textContent();
        await grid.getByRole('button', { name: /selected$/ }).focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
        await expect.poll(() => legend.textContent()).not.toBe(dayBefore);
        // Tab reaches the times; Space picks the first, an arrow key the next.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe(
          'start',
        );
        await page.keyboard.press('Space');
        for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
        if (process.env.SCREENSHOT_DIR) {
          await page.locator('section[aria-labelledby="booking-heading"]').screenshot({
            path: path.join(process.env.SCREENSHOT_DIR, `booking-picker-${width}-keyboard.png`),
          });
        }
        const chosen = page.locator('input[name="start"]:checked');
        start = (await chosen.getAttribute('value'))!;
        const label = await page.locator('label', { has: chosen }).textContent();
        expect(label).toBe(`${wallTime(start, NEW_YORK)} (${wallTime(start, 'Asia/Kolkata')})`);
        console.log(`${name}: ${dayBefore} -> ${await legend.textContent()}, chose "${label}"`);
      } else {
        found.push(...(await axeViolationsWithoutScripts(page, `${width}px step`)));
        if (process.env.SCREENSHOT_DIR) await screenshots(page, `booking-plain`, width);
        const radio = page.locator('input[name="start"]').nth(4 + 3 * index);
        await radio.check();
        start = (await radio.getAttribute('value'))!;
        const label = await radio.locator('..').textContent();
        expect(label).toBe(wallTime(start, 'Asia/Kolkata'));
        console.log(`${name}: chose "${label}"`);
      }

      await page.getByRole('button', { name: 'Book this time' }).click();
      await page.waitForURL('**/contact-us/demo', { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Your demo is booked' }).waitFor();
      const invited = await invitedStart(smtp, email);
      expect(invited).toBe(new Date(start).toISOString());
      const booked = await page.getByTestId('booked-time').textContent();
      expect(booked).toContain(wallTime(invited, 'Asia/Kolkata'));
      let local = '(none without JavaScript)';
      if (javaScript) {
        await expect
          .poll(() => page.getByTestId('visitor-time').count(), { timeout: 30_000 })
          .toBe(1);
        local = (await page.getByTestId('visitor-time').textContent())!;
        for (const part of newYorkParts(invited)) expect(local).toContain(part);
        // After a client-side navigation Next.js sets the page's title a moment later: axe waits for it.
        await expect.poll(() => page.title(), { timeout: 10_000 }).not.toBe('');
      } else {
        expect(await page.getByTestId('visitor-time').count()).toBe(0);
      }
      const check = javaScript ? axeViolations : axeViolationsWithoutScripts;
      found.push(...(await check(page, `${width}px confirmation`)));
      expect(found).toEqual([]);
      expect(violations).toEqual([]);
      console.log(
        `${name}: invitation DTSTART ${invited}; confirmation "${booked}" / "${local}"; axe 0, CSP violations 0`,
      );
      await context.close();
    },
  );

  it('a time ticked in the plain form before the picker arrives stays chosen in the picker', async () => {
    const context = await browser.newContext({
      timezoneId: NEW_YORK,
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    // The picker's chunk (and only it) is held back until the visitor has ticked a plain time,
    // as on a slow connection.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_next/static/chunks/**', async (route) => {
      const response = await route.fetch();
      if (PICKER_CODE.test(await response.text())) await released;
      await route.fulfill({ response });
    });
    await page.goto(`${server.url}/contact-us?subject=demo`);
    for (const [field, value] of Object.entries({ ...visitor, email: 'early@clinic.example' })) {
      await page.locator(`[name="${field}"]`).fill(value);
    }
    await backdateFormToken(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    const plain = page.locator('input[name="start"]').nth(5);
    await plain.check({ timeout: 30_000 });
    const ticked = await plain.getAttribute('value');
    expect(await page.getByRole('grid').count()).toBe(0);
    release();
    await page.getByRole('grid').waitFor({ timeout: 30_000 });
    const chosen = page.locator('input[name="start"]:checked');
    expect(await chosen.getAttribute('value')).toBe(ticked);
    console.log(
      `ticked before the picker: ${ticked}; chosen in the picker: "${await page.locator('label', { has: chosen }).textContent()}"`,
    );
    await context.close();
  });

  it('no Content-Security-Policy violation reached the server', () => {
    expect(server.output()).not.toContain('csp_violation');
  });
});

/**
 * Screenshots of the booking step at `width` (and 768 px after 1280) into SCREENSHOT_DIR: the
 * full page (`<name>-<width>.png`, for overflow) and the step alone (`<name>-<width>-step.png`).
 */
async function screenshots(page: Page, name: string, width: number) {
  for (const size of width === 1280 ? [1280, 768] : [width]) {
    await page.setViewportSize({ width: size, height: 900 });
    const file = (suffix: string) =>
      path.join(process.env.SCREENSHOT_DIR!, `${name}-${size}${suffix}.png`);
    await page.screenshot({ path: file(''), fullPage: true });
    await page
      .locator('section[aria-labelledby="booking-heading"]')
      .screenshot({ path: file('-step') });
  }
  await page.setViewportSize({ width, height: 900 });
}
