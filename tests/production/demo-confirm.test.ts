import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@test/enquiry';
import { freePort, startSmtpServer, type ReceivedMail, type TestSmtpServer } from '@test/smtp';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import {
  axeViolations,
  axeViolationsWithoutScripts,
  demoHosts,
  demoServerEnv,
  requestAndBook,
} from '@test/demo-booking';
import { startProductionServer, type ProductionServer } from '@test/next-server';

const istTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kolkata',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

describe('confirming a held demo from the e-mailed link (DEMO_CONFIRM_EMAIL=1), production build', () => {
  let smtp: TestSmtpServer;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-confirm-'));
    const port = await freePort();
    server = await startProductionServer({
      port,
      env: {
        ...demoServerEnv(dataDir, smtp.url, 50),
        SITE_URL: `http://127.0.0.1:${port}`,
        DEMO_CONFIRM_EMAIL: '1',
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

  const mailsTo = (address: string, prefix: string): ReceivedMail[] =>
    smtp.received.filter(
      (mail) => mail.envelope.to.includes(address) && mail.parsed.subject?.startsWith(prefix),
    );
  /** The host's invitation for the visitor `email` (it names the visitor's address). */
  const hostInvitations = (email: string) =>
    smtp.received.filter(
      (mail) =>
        demoHosts.some((host) => mail.envelope.to.includes(host.email)) &&
        mail.parsed.subject?.startsWith('Demo ') &&
        mail.parsed.text?.includes(email),
    );

  /**
   * Requests a demo as `email` and books the first offered time without JavaScript; checks that the
   * booking page says the time is held; returns the start, the booking page's cookie
   * (`name=value`) and the confirm link of the e-mail.
   */
  async function holdAndReadLink(
    email: string,
  ): Promise<{ start: string; cookie: string; link: string }> {
    const { start, cookie } = await requestAndBook(server.url, { email });
    const heldPage = await (
      await fetch(`${server.url}/contact-us/demo`, { headers: { cookie } })
    ).text();
    expect(heldPage).toContain('Confirm your demo by e-mail');
    expect(heldPage).toContain('We hold this time for you for 30 minutes');
    await until(async () => mailsTo(email, 'Confirm your Nirmaya HIMS demo').length > 0, 60_000);
    const [request] = mailsTo(email, 'Confirm your Nirmaya HIMS demo');
    expect(request!.parsed.attachments).toEqual([]);
    const link = /(http:\/\/\S+\/contact-us\/demo\/confirm\?token=c1\.\S+)/.exec(
      request!.parsed.text ?? '',
    )![1]!;
    return { start, cookie, link };
  }

  for (const javaScript of [false, true]) {
    it(`JavaScript ${javaScript ? 'on' : 'off'}: opening the link changes nothing; "Confirm my demo" books it and the invitations follow`, async () => {
      const email = `confirm-${javaScript ? 'js' : 'nojs'}@hospital.example`;
      const { start, cookie, link } = await holdAndReadLink(email);

      // A mail scanner opens the link, twice: a page with a button, and nothing else happens.
      for (let visit = 0; visit < 2; visit++) {
        const scanned = await fetch(link);
        expect(scanned.status).toBe(200);
        expect(scanned.headers.get('referrer-policy')).toBe('strict-origin');
        expect(await scanned.text()).toContain('Confirm my demo');
      }
      // Still held, not confirmed: a confirmation would have queued the invitations with it.
      const stillHeld = await (
        await fetch(`${server.url}/contact-us/demo`, { headers: { cookie } })
      ).text();
      expect(stillHeld).toContain('Confirm your demo by e-mail');
      expect(mailsTo(email, 'Your Nirmaya HIMS demo')).toEqual([]);
      expect(hostInvitations(email)).toEqual([]);

      const context = await browser.newContext({
        javaScriptEnabled: javaScript,
        viewport: { width: 375, height: 800 },
      });
      const page = await context.newPage();
      const axe = javaScript ? axeViolations : axeViolationsWithoutScripts;
      const shot = async (name: string) => {
        if (process.env.SCREENSHOT_DIR)
          await page.screenshot({
            path: path.join(
              process.env.SCREENSHOT_DIR,
              `${name}-${javaScript ? 'js' : 'nojs'}.png`,
            ),
            fullPage: true,
          });
      };
      // The booking page, as the visitor who held the time sees it.
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${server.url}/contact-us/demo` }]);
      await page.goto(`${server.url}/contact-us/demo`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Confirm your demo by e-mail',
      );
      expect(await page.getByTestId('held-time').textContent()).toContain(`${istTime(start)} IST`);
      expect(await axe(page, 'held page')).toEqual([]);
      await shot('demo-held');

      expect((await page.goto(link))!.status()).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Confirm your demo');
      expect(await page.getByTestId('confirm-time').textContent()).toContain(
        `${istTime(start)} IST`,
      );
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain(
        'noindex',
      );
      expect(await axe(page, 'confirm page')).toEqual([]);
      await shot('demo-confirm');

      await page.getByRole('button', { name: 'Confirm my demo' }).click();
      await page.waitForURL(`${server.url}/contact-us/demo`, { timeout: 30_000 });
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
        .toBe('Your demo is booked');
      await shot('demo-confirmed');
      await until(
        async () =>
          mailsTo(email, 'Your Nirmaya HIMS demo').length > 0 && hostInvitations(email).length > 0,
        60_000,
      );

      // Opening the link again shows the confirmed demo; pressing nothing changes nothing.
      await page.goto(link);
      expect(await page.getByText('This demo is confirmed.').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Confirm my demo' }).count()).toBe(0);
      expect(mailsTo(email, 'Your Nirmaya HIMS demo')).toHaveLength(1);
      console.log(
        `JavaScript ${javaScript ? 'on' : 'off'}: held ${start}, confirmed; e-mails to the visitor: ${smtp.received
          .filter((mail) => mail.envelope.to.includes(email))
          .map((mail) => mail.parsed.subject)
          .join(' | ')}`,
      );
      await context.close();
    });
  }

  it('a forged or altered link confirms nothing', async () => {
    const { link } = await holdAndReadLink('confirm-forged@hospital.example');
    const altered = link.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    const html = await (await fetch(altered)).text();
    expect(html).toContain('This link is not valid or has expired.');
    expect(html).not.toContain('Confirm my demo</');
  });
});
