import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@test/enquiry';
import { freePort, startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { axeViolations, demoServerEnv } from '@test/demo-booking';
import { backdateFormToken } from '@test/form-token';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';

const ADMIN = 'boss@nirmaya.example';
/** A person's Chrome (the headless browser's own user agent says HeadlessChrome: a bot). */
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('visit counts and the Sources page in Chromium, production build', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-sources-'));
    const port = await freePort();
    server = await startProductionServer({
      port,
      env: {
        ...demoServerEnv(dataDir, smtp.url, 50),
        DEMO_HOSTS: undefined,
        SITE_URL: `http://127.0.0.1:${port}`,
        ADMIN_EMAILS: ADMIN,
        SIGN_IN_MAX: '50',
      },
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

  /** Opens `url` and waits until the page has loaded and its beacon (if any) has gone. */
  async function visit(page: Page, url: string): Promise<void> {
    const sent = page
      .waitForRequest((request) => request.url().endsWith('/api/v'), { timeout: 5_000 })
      .catch(() => null);
    await page.goto(`${server.url}${url}`, { waitUntil: 'load' });
    await sent;
  }

  async function signedInAdmin(): Promise<BrowserContext> {
    const context = await browser.newContext({
      userAgent: CHROME,
      viewport: { width: 375, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/sign-in`);
    await page.getByLabel('Work e-mail').fill(ADMIN);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.waitForURL(/answer=/);
    await until(async () => smtp.received.some((mail) => mail.envelope.to.includes(ADMIN)), 30_000);
    const mail = smtp.received.filter((m) => m.envelope.to.includes(ADMIN)).at(-1)!;
    await page.goto(/(http\S+sign-in\/confirm\S+)/.exec(mail.parsed.text ?? '')![1]!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.close();
    return context;
  }

  it('counts a campaign visit of three pages and its enquiry; no-JS counted, bots and DNT not; no cookie', async () => {
    const visitor = await browser.newContext({ userAgent: CHROME });
    const page = await visitor.newPage();
    await visit(page, '/?utm_source=newsletter&utm_campaign=winter');
    await visit(page, '/about-us');
    await visit(page, '/contact-us');
    expect(await visitor.cookies()).toEqual([]);
    await page.getByLabel('First Name').fill('Asha');
    await page.getByLabel('Last Name').fill('Rao');
    await page.getByLabel('Email').fill('asha.sources@hospital.example');
    await page.getByLabel('Organization').fill('City General Hospital');
    await page.getByLabel('Subject').fill('Where we came from');
    await expect
      .poll(() => page.locator('input[name="utmCampaign"]').getAttribute('value'))
      .toBe('winter');
    await backdateFormToken(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    const reference = (await page
      .getByTestId('enquiry-reference')
      .textContent({ timeout: 30_000 }))!;
    // No analytics cookie, ever (the form sets none either).
    expect(await visitor.cookies()).toEqual([]);
    await visitor.close();

    const noScript = await browser.newContext({ userAgent: CHROME, javaScriptEnabled: false });
    await (await noScript.newPage()).goto(`${server.url}/products/0?utm_campaign=nojs`);
    await noScript.close();
    const bot = await browser.newContext({ userAgent: GOOGLEBOT });
    await visit(await bot.newPage(), '/about-us?utm_campaign=bot');
    await bot.close();
    const dnt = await browser.newContext({ userAgent: CHROME, extraHTTPHeaders: { DNT: '1' } });
    await visit(await dnt.newPage(), '/about-us?utm_campaign=dnt');
    await dnt.close();

    const admin = await signedInAdmin();
    const sources = await admin.newPage();
    // Views are written every 5 s: wait for them.
    const campaignRow = sources
      .getByRole('region', { name: 'Campaigns' })
      .getByRole('row', { name: /winter/ });
    await until(async () => {
      await sources.goto(`${server.url}/admin/sources`);
      return (await campaignRow.count()) === 1 && (await sources.getByText('nojs').count()) > 0;
    }, 30_000);
    await expect(campaignRow.getByRole('cell').nth(3).textContent()).resolves.toBe('3');
    const funnel = sources
      .getByRole('region', { name: 'The funnel per source and campaign' })
      .getByRole('row', { name: /newsletter winter/ });
    // Visitors, contact page views, enquiries, demos booked, demos held.
    expect(await funnel.getByRole('cell').allTextContents()).toEqual([
      'newsletter',
      'winter',
      '1',
      '1',
      '1',
      '0',
      '0',
    ]);
    expect(await sources.getByText('bot', { exact: true }).count()).toBe(0);
    expect(await sources.getByText('dnt', { exact: true }).count()).toBe(0);
    expect(await axeViolations(sources, 'sources at 375 px')).toEqual([]);
    const csv = await sources.request.post(`${server.url}/api/console/sources.csv`, {
      headers: { origin: server.url },
      form: { from: '2020-01-01', to: '2099-12-31' },
    });
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('"newsletter","winter","1","1","1","0","0"');
    await sources.goto(`${server.url}/admin/enquiries/${reference}`);
    await expect(sources.getByText('winter', { exact: true }).count()).resolves.toBe(1);
    await admin.close();
  });
});
