import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFramework } from '@test/hydration';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { bookTime, demoServerEnv, requestDemo, watchCspViolations } from '@test/demo-booking';
import { until } from '@test/enquiry';
import { logLines, startProductionServer, type ProductionServer } from '@test/next-server';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';

/**
 * The contact and privacy-request forms' proof of work and the booking picker are fetched on the
 * first interaction with their form, not with the page: real `npm start` build, real Chromium. Prints each page's
 * first-load script as the browser received it (the network log's encoded body sizes: brotli from
 * `npm start`) and what the first interaction fetched.
 */

/** Code of the proof of work only: the widget's global (`$altcha`) and its worker's algorithm. */
const PROOF_CODE = /\$altcha|PBKDF2/;
/** Code of the booking picker only: react-day-picker's class prefix and the picker's own label. */
const PICKER_CODE = /rdp-|Choose a day/;

type Script = { path: string; bytes: number; body: string };

/** Every script `context` fetched so far, in order, with its encoded size and its body. */
function watchScripts(context: BrowserContext): () => Promise<Script[]> {
  const pending: Array<Promise<Script>> = [];
  context.on('response', (response) => {
    const url = new URL(response.url());
    if (response.request().resourceType() !== 'script' && !url.pathname.endsWith('.js')) return;
    pending.push(
      (async () => {
        const body = await response.text().catch(() => '');
        const { responseBodySize } = await response.request().sizes();
        return { path: url.pathname, bytes: responseBodySize, body };
      })(),
    );
  });
  return () => Promise.all(pending);
}

/** The scripts' size in KiB as received, each file once (a repeated fetch served from cache is 0). */
const kib = (scripts: Script[]) => {
  const bytes = new Map<string, number>();
  for (const { path, bytes: size } of scripts)
    bytes.set(path, Math.max(bytes.get(path) ?? 0, size));
  return ([...bytes.values()].reduce((sum, size) => sum + size, 0) / 1024).toFixed(1);
};

/**
 * What `scripts` the page fetched before any interaction, printed: those its HTML names (`html`) and
 * those fetched later (dynamic imports started by hydration, chunks of prefetched routes).
 */
function report(label: string, html: string, scripts: Script[]) {
  const named = new Set(html.match(/\/_next\/static\/chunks\/[^"'\\\s)]+?\.js/g));
  const own = scripts.filter((script) => named.has(script.path));
  const later = scripts.filter((script) => !named.has(script.path));
  const list = (group: Script[]) =>
    group.map((s) => `${s.path.split('/').at(-1)} ${Math.max(0, s.bytes)}`).join(', ');
  console.log(
    `${label} before any interaction: ${kib(scripts)} KiB of script as received; the HTML's ${own.length} scripts ${kib(own)} KiB (${list(own)}); fetched later ${kib(later)} KiB (${list(later)})`,
  );
}

/**
 * With `hydrate`, makes an interaction outside the forms (a press of Shift: the framework starts on
 * the visitor's first interaction, src/lib/page-loader.ts) and waits until React has hydrated the
 * page; then waits until the network has been idle, then 3 s more: what hydration starts (a dynamic
 * import in an effect) may come after the first idle moment. Without, the page is only read.
 */
async function settle(page: Page, hydrate: boolean) {
  if (hydrate) await startFramework(page);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(3_000);
  await page.waitForLoadState('networkidle');
}

/** What a describe block's tests share: the SMTP server, `next start` and Chromium. */
type Site = { smtp: TestSmtpServer; server: ProductionServer; browser: Browser };

/**
 * Starts, for the enclosing describe block, a real SMTP server, `next start` on a fresh data
 * directory named after `prefix` (the demo environment, with `env` over it) and Chromium; stops
 * them after its tests. The returned object is filled in `beforeAll`.
 */
function useSite(prefix: string, env: Record<string, string | undefined> = {}): Site {
  const site = {} as Site;
  let dataDir: string | undefined;
  beforeAll(async () => {
    site.smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), prefix));
    site.server = await startProductionServer({
      env: { ...demoServerEnv(dataDir, site.smtp.url, 20), ...env },
      readyPath: '/api/health',
    });
    site.browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.stop();
    await site.smtp?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return site;
}

describe('the forms fetch their heavy code on the first interaction (next start, Chromium)', () => {
  const site = useSite('nirmaya-lazy-');

  it('/contact-us: no proof-of-work code until the form is focused', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const violations = await watchCspViolations(context);
    const scripts = watchScripts(context);
    const challenges: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/api/altcha')) challenges.push(request.url());
    });
    const page = await context.newPage();
    const html = await (await page.goto(`${site.server.url}/contact-us`))!.text();
    // Hydrated by an interaction elsewhere: the proof of work waits for the form's.
    await settle(page, true);
    const firstLoad = await scripts();
    report('/contact-us', html, firstLoad);
    expect(firstLoad.filter((script) => PROOF_CODE.test(script.body)).map((s) => s.path)).toEqual(
      [],
    );
    expect(challenges).toEqual([]);

    await page.getByLabel('First Name').focus();
    await page.getByRole('checkbox', { name: 'Verified' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[name="altcha"]')?.value,
      undefined,
      { timeout: 30_000 },
    );
    // The widget's chunk and its worker (whose fetch the browser may report a moment later).
    const proofFetched = async () =>
      (await scripts()).slice(firstLoad.length).filter((script) => PROOF_CODE.test(script.body));
    await expect.poll(async () => (await proofFetched()).length).toBeGreaterThanOrEqual(2);
    const later = (await scripts()).slice(firstLoad.length);
    const proof = await proofFetched();
    console.log(
      `/contact-us on the first focus: ${new Set(later.map((s) => s.path)).size} scripts, ${kib(later)} KiB (proof of work: ${proof.map((s) => `${s.path.split('/').at(-1)} ${Math.max(0, s.bytes)}`).join(', ')}); ${challenges.length} challenge`,
    );
    expect(challenges).toHaveLength(1);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('/contact-us/demo: no picker code until the booking form is touched', async () => {
    // A demo request without JavaScript, then a post without a valid time: the booking cookie is
    // set and /contact-us/demo offers the times again.
    const step = await requestDemo(site.server.url, { email: 'lazy-picker@clinic.example' });
    const answer = await bookTime(site.server.url, step, 'not-a-time');
    const cookie = answer.headers.get('set-cookie')?.split(';')[0];
    expect(answer.status).toBe(303);
    expect(cookie).toBeDefined();
    const [name, value] = [cookie!.slice(0, cookie!.indexOf('=')), cookie!.split('=')[1]!];

    const context = await site.browser.newContext({
      timezoneId: 'America/New_York',
      viewport: { width: 1280, height: 900 },
    });
    await context.addCookies([{ name, value, url: `${site.server.url}/contact-us/demo` }]);
    const violations = await watchCspViolations(context);
    const scripts = watchScripts(context);
    const page = await context.newPage();
    const html = await (await page.goto(`${site.server.url}/contact-us/demo`))!.text();
    // Only read: the focus below starts the framework, and the picker once it has hydrated.
    await settle(page, false);
    const firstLoad = await scripts();
    report('/contact-us/demo', html, firstLoad);
    expect(firstLoad.filter((script) => PICKER_CODE.test(script.body)).map((s) => s.path)).toEqual(
      [],
    );
    // The plain form, in the provider's zone, until then.
    expect(await page.getByRole('grid').count()).toBe(0);
    expect(await page.locator('input[name="start"]').count()).toBeGreaterThan(0);

    await page.locator('input[name="start"]').first().focus();
    await page.getByRole('grid').waitFor({ timeout: 30_000 });
    const later = (await scripts()).slice(firstLoad.length);
    const picker = later.filter((script) => PICKER_CODE.test(script.body));
    console.log(
      `/contact-us/demo on the first focus: ${new Set(later.map((s) => s.path)).size} scripts, ${kib(later)} KiB (picker: ${picker.map((s) => `${s.path.split('/').at(-1)} ${Math.max(0, s.bytes)}`).join(', ')})`,
    );
    expect(picker.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await context.close();
  });
});

describe('/privacy-requests fetches its proof of work on the first interaction (next start, Chromium, the generated site key)', () => {
  // No FORM_SECRET: the site generates its key in a fresh DATA_DIR, as `npm start` does out of the
  // box; the page, the beacon and the challenge route are separate server bundles that must all
  // sign with that one key.
  const site = useSite('nirmaya-lazy-privacy-', { FORM_SECRET: undefined, TRUST_PROXY: '1' });

  /**
   * A context as a visitor's phone (a browser's own user agent, so the page-view beacon counts as
   * it would for a person) posting from `address`, with its CSP violations, the scripts it fetched
   * and the answers to the proof-of-work challenges.
   */
  async function visitor(address: string, javaScriptEnabled = true) {
    const context = await site.browser.newContext({
      javaScriptEnabled,
      viewport: { width: 412, height: 823 },
      userAgent:
        'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      extraHTTPHeaders: { 'X-Forwarded-For': address },
    });
    const violations = await watchCspViolations(context);
    const scripts = watchScripts(context);
    const challenges: number[] = [];
    const beacons: string[] = [];
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/api/altcha') challenges.push(response.status());
      if (url.pathname === '/api/v') beacons.push(url.pathname);
    });
    return { context, violations, scripts, challenges, beacons };
  }

  it("no proof-of-work code until the form is focused; the challenge then answers with the page's key", async () => {
    const { context, violations, scripts, challenges, beacons } = await visitor('10.31.0.1');
    const page = await context.newPage();
    const html = await (await page.goto(`${site.server.url}/privacy-requests`))!.text();
    await settle(page, true);
    const firstLoad = await scripts();
    report('/privacy-requests', html, firstLoad);
    expect(firstLoad.filter((script) => PROOF_CODE.test(script.body)).map((s) => s.path)).toEqual(
      [],
    );
    expect(challenges).toEqual([]);
    expect(await page.locator('altcha-widget').count()).toBe(0);
    // The page-view beacon has gone (it reads the site key in the startup's bundle).
    expect(beacons.length).toBeGreaterThan(0);
    // The prefetch of / (the logo's link) preloads none of its images: this page would not use them.
    expect(await page.locator('link[rel="preload"][as="image"]').count()).toBe(0);
    const submit = page.getByRole('button', { name: 'Send me the link' });
    const submitBefore = await submit.boundingBox();

    await page.getByLabel('Email').focus();
    await page.getByRole('checkbox', { name: 'Verified' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[name="altcha"]')?.value,
      undefined,
      { timeout: 30_000 },
    );
    const proofFetched = async () =>
      (await scripts()).slice(firstLoad.length).filter((script) => PROOF_CODE.test(script.body));
    await expect.poll(async () => (await proofFetched()).length).toBeGreaterThanOrEqual(2);
    const later = (await scripts()).slice(firstLoad.length);
    const proof = await proofFetched();
    const submitAfter = await submit.boundingBox();
    console.log(
      `/privacy-requests on the first focus: ${new Set(later.map((s) => s.path)).size} scripts, ${kib(later)} KiB (proof of work: ${proof.map((s) => `${s.path.split('/').at(-1)} ${Math.max(0, s.bytes)}`).join(', ')}); challenges answered ${challenges.join(', ')}; Submit at y ${submitBefore?.y} before the widget, ${submitAfter?.y} after`,
    );
    // One challenge, issued for the page's form token (a key of the route's own would refuse it: 400).
    expect(challenges).toEqual([200]);
    // The widget's place was in the server's HTML: its arrival moves nothing.
    expect(submitAfter?.y).toBe(submitBefore?.y);
    expect(violations).toEqual([]);
    await context.close();
  });

  /** Opens the form, fills it at once as autofill would, and presses Submit 1 s after load. */
  async function fastRequest(address: string, email: string, javaScriptEnabled: boolean) {
    const { context, violations, challenges } = await visitor(address, javaScriptEnabled);
    const page = await context.newPage();
    await page.goto(`${site.server.url}/privacy-requests`);
    const loadedAt = Date.now();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('radio', { name: /^A grievance/ }).check();
    await page.getByRole('textbox', { name: /^Details/ }).fill('Sent at once after autofill.');
    await page.waitForTimeout(Math.max(0, loadedAt + 1_000 - Date.now()));
    const posted = page.waitForRequest((request) => request.method() === 'POST');
    await page.getByRole('button', { name: 'Send me the link' }).click();
    const post = await posted;
    const postedAfter = Date.now() - loadedAt;
    await page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: 'If we hold data' })
      .waitFor({ timeout: 30_000 });
    const withProof = /name="(?:_\d+_)?altcha"\r\n\r\n[A-Za-z0-9+/=]{20,}/.test(
      post.postData() ?? '',
    );
    await context.close();
    return { postedAfter, withProof, violations, challenges };
  }

  /** What the server logged for the privacy requests so far (their outcome: queued, bot, …). */
  const outcomes = () =>
    logLines(site.server.output())
      .filter((line) => line.event === 'privacy.asked')
      .map((line) => line.outcome);

  it('a fast visitor with JavaScript: the submit waits for the proof, and the link is e-mailed', async () => {
    const email = 'fast.privacy@hospital.example';
    const before = outcomes().length;
    const visit = await fastRequest('10.31.0.2', email, true);
    await until(
      async () => site.smtp.received.some((mail) => mail.envelope.to.includes(email)),
      30_000,
    );
    console.log(
      `/privacy-requests, JS on: Submit pressed 1 s after load, posted ${visit.withProof ? 'with' : 'WITHOUT'} a proof at ${visit.postedAfter} ms; outcome ${outcomes().slice(before).join(', ')}`,
    );
    expect(visit.withProof).toBe(true);
    expect(visit.challenges).toEqual([200]);
    expect(outcomes().slice(before)).toEqual(['queued']);
    expect(site.smtp.received.filter((mail) => mail.envelope.to.includes(email))).toHaveLength(1);
    expect(visit.violations).toEqual([]);
  });

  it('a fast visitor without JavaScript: the same answer, posted without a proof, nothing e-mailed', async () => {
    const email = 'fast.nojs.privacy@hospital.example';
    const before = outcomes().length;
    const visit = await fastRequest('10.31.0.3', email, false);
    await until(async () => outcomes().length > before, 10_000);
    console.log(
      `/privacy-requests, JS off: posted ${visit.withProof ? 'with' : 'without'} a proof at ${visit.postedAfter} ms; outcome ${outcomes().slice(before).join(', ')}`,
    );
    expect(visit.withProof).toBe(false);
    expect(outcomes().slice(before)).toEqual(['bot']);
    expect(site.smtp.received.filter((mail) => mail.envelope.to.includes(email))).toEqual([]);
    expect(visit.violations).toEqual([]);
  });
});
