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
  offeredStarts,
  requestAndBook,
  requestDemo,
  bookTime,
} from '@test/demo-booking';
import { honeypotField } from '@/lib/contact-fields';
import { hiddenInputs } from '@test/contact-form';
import { startProductionServer, type ProductionServer } from '@test/next-server';

const istTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kolkata',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

describe('confirming a held demo from the e-mailed link (DEMO_CONFIRM_EMAIL, on by default), production build', () => {
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
        // Confirmation is on by default: unset, as a new installation has it.
        DEMO_CONFIRM_EMAIL: undefined,
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

  /**
   * The page a booking answers, masked of what differs between any two bookings: the time chosen
   * and its host, the CSP nonce, enquiry references and signed tokens.
   */
  const masked = (html: string) =>
    html
      .split(/nonce="([^"]+)"/.exec(html)?.[1] ?? 'nonce…')
      .join('nonce…')
      .replace(/NH-[0-9A-Z]+/g, 'NH-…')
      .replace(/\b[bcm]1\.[\w.-]+/g, 'token…')
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'instant…')
      .replace(/\d{2}:\d{2} IST/g, 'time…')
      .replace(/(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \d{1,2} \w+ \d{4}/g, 'day…')
      .replace(/Meera Iyer|Arjun Sen/g, 'host…');

  it('the capped, quarantined and lead answers are one page (same status, same HTML once masked); the capped address owner is told a demo exists, the quarantined one nothing', async () => {
    const owner = 'owner-compare@hospital.example';
    const answer = async (email: string, index: number, extra: Record<string, string> = {}) => {
      const step = await requestDemo(server.url, { email, ...extra });
      const start = offeredStarts(step)[index]!;
      const booked = await bookTime(server.url, step, start);
      const cookie = booked.headers.get('set-cookie')!.split(';')[0]!;
      const location = booked.headers.get('location')!;
      const page = await fetch(new URL(location, server.url), { headers: { cookie } });
      return { status: [booked.status, location, page.status], html: await page.text() };
    };
    const lead = await answer(owner, 10);
    // Only a confirmed demo caps an address (a hold alone, which anyone can make with it, caps
    // nobody): the owner confirms theirs from the link, without JavaScript.
    await until(async () => mailsTo(owner, 'Confirm your Nirmaya HIMS demo').length > 0, 60_000);
    const link = /(http:\/\/\S+\/contact-us\/demo\/confirm\?token=c1\.\S+)/.exec(
      mailsTo(owner, 'Confirm your Nirmaya HIMS demo')[0]!.parsed.text ?? '',
    )![1]!;
    const confirmPage = await (await fetch(link)).text();
    const confirmForm = /<form\b[\s\S]*?<\/form>/.exec(confirmPage)![0];
    const body = new FormData();
    for (const [name, value] of hiddenInputs(confirmForm)) body.append(name, value);
    const confirmed = await fetch(link, {
      method: 'POST',
      body,
      headers: { origin: server.url },
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(303);
    const capped = await answer(owner.toUpperCase(), 12);
    const quarantined = await answer('quarantined-compare@hospital.example', 14, {
      [honeypotField]: 'x',
    });
    expect(lead.status).toEqual([303, '/contact-us/demo', 200]);
    expect(capped.status).toEqual(lead.status);
    expect(quarantined.status).toEqual(lead.status);
    expect(lead.html).toContain('Confirm your demo by e-mail');
    const firstDifference = (a: string, b: string) => {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return i < Math.max(a.length, b.length)
        ? `${a.slice(i - 80, i + 120)} | ${b.slice(i - 80, i + 120)}`
        : '';
    };
    expect(firstDifference(masked(capped.html), masked(lead.html))).toBe('');
    expect(firstDifference(masked(quarantined.html), masked(lead.html))).toBe('');
    console.log(
      `production: lead, capped and quarantined answers: ${lead.status.join(' → ')}, ${masked(lead.html).length} bytes alike once masked`,
    );
    // The owner's address got the request to confirm, its invitation, then the notice of the
    // existing demo.
    const toOwner = (subject: string) =>
      smtp.received.filter(
        (mail) =>
          mail.envelope.to.some((to) => to.toLowerCase() === owner) &&
          mail.parsed.subject === subject,
      );
    await until(async () => toOwner('Your Nirmaya HIMS demo').length > 0, 60_000);
    expect(toOwner('Confirm your Nirmaya HIMS demo')).toHaveLength(1);
    expect(toOwner('Your Nirmaya HIMS demo')[0]!.parsed.text).not.toMatch(/Asha|Rao|City General/);
    expect(mailsTo('quarantined-compare@hospital.example', '')).toEqual([]);
  });

  it('the held page sends the request again, and to a corrected address, without JavaScript; the old link then confirms nothing', async () => {
    const typo = 'typo-resend@hospital.example';
    const { cookie, link } = await holdAndReadLink(typo);
    const heldPage = await (
      await fetch(`${server.url}/contact-us/demo`, { headers: { cookie } })
    ).text();
    /** Posts the held page's form of `intent` (its hidden fields) with `values`, as a browser without JavaScript. */
    const post = async (intent: string, values: Record<string, string> = {}) => {
      const form = [...heldPage.matchAll(/<form\b[\s\S]*?<\/form>/g)]
        .map(([html]) => html)
        .find((html) => html.includes(`value="${intent}"`))!;
      const body = new FormData();
      for (const [name, value] of [...hiddenInputs(form), ...Object.entries(values)])
        body.append(name, value);
      return fetch(`${server.url}/contact-us/demo`, {
        method: 'POST',
        body,
        headers: { origin: server.url, cookie },
        redirect: 'manual',
      });
    };
    const resent = await post('resend');
    expect(resent.status).toBe(303);
    expect(resent.headers.get('location')).toBe('/contact-us/demo?outcome=sent');
    await until(async () => mailsTo(typo, 'Confirm your Nirmaya HIMS demo').length === 2, 60_000);
    const corrected = await post('correct', { email: 'right-resend@hospital.example' });
    expect(corrected.headers.get('location')).toBe('/contact-us/demo?outcome=sent');
    await until(
      async () =>
        mailsTo('right-resend@hospital.example', 'Confirm your Nirmaya HIMS demo').length === 1,
      60_000,
    );
    const stale = await (await fetch(link)).text();
    expect(stale).not.toContain('Confirm my demo</');
    console.log(
      `production, no JavaScript: resend → ${mailsTo(typo, 'Confirm').length} requests to the typo; corrected → 1 request to the new address; the old link confirms nothing`,
    );
  });
});
