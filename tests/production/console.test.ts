import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chromium,
  expect as expectPage,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { honeypotField } from '@/lib/contact-fields';
import { until } from '@test/enquiry';
import { freePort, startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { startWebhookReceiver, type TestWebhookReceiver } from '@test/webhook-receiver';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { hiddenInputs, loadForm, postEnquiry, submitForm } from '@test/contact-form';
import {
  axeViolations,
  demoServerEnv,
  requestAndBook,
  watchCspViolations,
} from '@test/demo-booking';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { openDatabase } from '@/server/platform/db/client';
import { privacyRequests, type PrivacyRequestKind } from '@/server/features/privacy/schema';

const ADMIN = 'boss@nirmaya.example';
const SALES = 'sam@nirmaya.example';
const STRANGER = 'stranger@elsewhere.example';
const LEADS_TO = 'leads@nirmaya.example';
const PERSON = 'grievance.person@hospital.example';
const DAY_MS = 86_400_000;
/** Where the screenshots go, to be looked at by a person. */
const SHOTS = process.env.CONSOLE_SHOTS_DIR ?? path.join(tmpdir(), 'nirmaya-console-shots');

describe('the sales console in Chromium, production build', () => {
  let smtp: TestSmtpServer;
  let hooks: TestWebhookReceiver;
  let server: ProductionServer;
  let dataDir: string;
  let browser: Browser;
  let admin: BrowserContext;
  let adminCsp: string[];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    hooks = await startWebhookReceiver();
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-console-'));
    const port = await freePort();
    server = await startProductionServer({
      port,
      env: {
        ...demoServerEnv(dataDir, smtp.url, 50),
        SITE_URL: `http://127.0.0.1:${port}`,
        ADMIN_EMAILS: ADMIN,
        SIGN_IN_MAX: '50',
        METRICS_TOKEN: 'metrics-token-for-the-console-test',
        WEBHOOK_URLS: hooks.url,
        WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      },
      readyPath: '/api/health',
    });
    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await hooks?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The e-mails to `address` whose subject starts with `prefix`, once there are `count`. */
  async function mailsTo(address: string, prefix: string, count = 1) {
    const matching = () =>
      smtp.received.filter(
        (mail) => mail.envelope.to.includes(address) && mail.parsed.subject?.startsWith(prefix),
      );
    await until(async () => matching().length >= count, 30_000);
    return matching();
  }

  /** Asks for a sign-in link on the sign-in page of `page` and returns what the page said. */
  async function askForLink(page: Page, email: string): Promise<string> {
    await page.goto(`${server.url}/admin/sign-in`);
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.waitForURL(/answer=/);
    return (await page.getByRole('status').first().textContent()) ?? '';
  }

  /** Signs `email` in within a fresh context (JavaScript as given) and returns it and the link. */
  async function signIn(email: string, javaScriptEnabled = true, width = 1280) {
    const context = await browser.newContext({
      javaScriptEnabled,
      viewport: { width, height: 900 },
    });
    const violations = await watchCspViolations(context);
    const page = await context.newPage();
    const before = smtp.received.filter((mail) => mail.envelope.to.includes(email)).length;
    await askForLink(page, email);
    const [mail] = (await mailsTo(email, 'Your sign-in link', before + 1)).slice(-1);
    const link = /(http\S+sign-in\/confirm\S+)/.exec(mail!.parsed.text ?? '')![1]!;
    // The link's page signs nobody in: only its button's POST does.
    await page.goto(link);
    expect(await context.cookies(server.url)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.close();
    return { context, link, violations };
  }

  /**
   * Stores an open privacy request as the visitor side does once its link is opened (through the
   * running site's PGlite socket), verified so that it is due `dueInDays` days from now.
   */
  async function addPrivacyRequest(reference: string, kind: PrivacyRequestKind, dueInDays: number) {
    const database = await openDatabase({ dataDir, preferRunningSite: true });
    const dueAt = new Date(Date.now() + dueInDays * DAY_MS);
    const verifiedAt = new Date(dueAt.getTime() - 90 * DAY_MS);
    await database.db.insert(privacyRequests).values({
      id: crypto.randomUUID(),
      reference,
      kind,
      linkNonce: randomBytes(12).toString('hex'),
      emailHash: randomBytes(16).toString('hex'),
      email: PERSON,
      details: `The ${kind} of ${reference}, in the person's words.`,
      requestedAt: new Date(verifiedAt.getTime() - 60_000),
      verifiedAt,
      dueAt,
    });
    await database.close();
    return dueAt;
  }

  /** The cookie header of `context` for the site (to post as that operator without a page). */
  async function cookieOf(context: BrowserContext): Promise<string> {
    const cookies = await context.cookies(server.url);
    return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  it('keeps /admin private: no-store, noindex, sign-in redirect without data', async () => {
    for (const pathname of ['/admin', '/admin/spam', '/admin/audit', '/admin/privacy']) {
      const response = await fetch(server.url + pathname, { redirect: 'manual' });
      expect([303, 307], pathname).toContain(response.status);
      expect(response.headers.get('location'), pathname).toMatch(/\/admin\/sign-in$/);
      expect(response.headers.get('cache-control'), pathname).toBe('private, no-store');
    }
    // The export answers a POST from this site only: a GET (a link, an image) exports nothing,
    // a post without a session goes to the sign-in page, one from another site is refused.
    const exportGet = await fetch(`${server.url}/admin/export.csv`, { redirect: 'manual' });
    expect(exportGet.status).toBe(405);
    const exportPost = (origin: string) =>
      fetch(`${server.url}/admin/export.csv`, {
        method: 'POST',
        body: new URLSearchParams({ q: 'x' }),
        headers: { origin },
        redirect: 'manual',
      });
    const unsigned = await exportPost(server.url);
    expect(unsigned.status).toBe(303);
    expect(unsigned.headers.get('location')).toMatch(/\/admin\/sign-in$/);
    expect((await exportPost('https://evil.example')).status).toBe(403);
    // better-auth's verify endpoint signs in by POST only.
    const verifyGet = await fetch(`${server.url}/api/auth/magic-link/verify?token=x`, {
      redirect: 'manual',
    });
    expect(verifyGet.status).toBe(405);
    const signInPage = await fetch(`${server.url}/admin/sign-in`);
    expect(signInPage.headers.get('cache-control')).toBe('private, no-store');
    expect(signInPage.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(signInPage.headers.get('content-security-policy')).toMatch(/script-src[^;]*'nonce-/);
    expect(await signInPage.text()).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).not.toContain('/admin');
  });

  it('answers a stranger as an operator, and e-mails nobody', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const strangerAnswer = await askForLink(page, STRANGER);
    const adminAnswer = await askForLink(page, ADMIN);
    expect(strangerAnswer).toContain('Check your inbox');
    expect(strangerAnswer).toBe(adminAnswer);
    await mailsTo(ADMIN, 'Your sign-in link');
    expect(smtp.received.filter((mail) => mail.envelope.to.includes(STRANGER))).toEqual([]);
    await context.close();
  });

  it('signs in with the e-mailed link once; a second use fails', async () => {
    const signedIn = await signIn(ADMIN);
    admin = signedIn.context;
    adminCsp = signedIn.violations;
    const cookies = await admin.cookies(server.url);
    const session = cookies.find((cookie) => cookie.name === 'nirmaya-console.session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const again = await browser.newContext();
    const page = await again.newPage();
    await page.goto(signedIn.link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/admin\/sign-in\?link=failed/);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('expired');
    expect(await again.cookies(server.url)).toEqual([]);
    await again.close();
  });

  it('shows a submitted enquiry in the inbox and in a search by its e-mail', async () => {
    const email = `inbox.${Date.now()}@hospital.example`;
    const result = await postEnquiry(server.url, {
      firstName: '=HYPERLINK("http://x.example")',
      lastName: 'Rao',
      email,
      organization: 'City General Hospital',
      subject: 'Laboratory module',
      message: 'Please call us.',
    });
    expect(result.accepted).toBe(true);
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin`);
    await expect.poll(() => page.getByRole('link', { name: result.reference! }).count()).toBe(1);
    await page.getByLabel('Search').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/q=/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: result.reference! }).click();
    await page.waitForURL(/\/admin\/enquiries\//);
    await expect.poll(() => page.getByText('City General Hospital').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('lists a quarantined enquiry with its reason; release delivers it once, with an audit row', async () => {
    const email = `held.${Date.now()}@hospital.example`;
    const form = await loadForm(server.url);
    const held = await submitForm(
      server.url,
      {
        ...form,
        fields: form.fields.map((field) =>
          field.name === honeypotField ? { ...field, value: 'http://spam.example' } : field,
        ),
      },
      {
        firstName: 'Real',
        lastName: 'Hospital',
        email,
        organization: 'Held Hospital',
        subject: 'Held subject',
        message: 'A real enquiry the filter held.',
      },
    );
    expect(held.accepted).toBe(true);
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin/spam`);
    await expect.poll(() => page.getByText('1 held as spam to review').count()).toBe(1);
    await expect
      .poll(() => page.getByText('filled in the hidden field only bots see').count())
      .toBe(1);
    await page.getByLabel(`Release ${held.reference}`).check();
    await page.getByRole('button', { name: 'Release the ticked enquiries' }).click();
    await page.waitForURL(/notice=released/);
    const mails = await mailsTo(LEADS_TO, `Website enquiry ${held.reference}`);
    await until(
      async () => hooks.delivered().some((hook) => hook.body.includes(held.reference!)),
      30_000,
    );
    // Released again (a second post, or another operator): nothing more is sent.
    await page.goto(`${server.url}/admin/enquiries/${held.reference}`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(
      smtp.received.filter((mail) =>
        mail.parsed.subject?.startsWith(`Website enquiry ${held.reference}`),
      ),
    ).toHaveLength(mails.length);
    expect(mails).toHaveLength(1);
    expect(hooks.delivered().filter((hook) => hook.body.includes(held.reference!))).toHaveLength(1);
    await page.goto(`${server.url}/admin/audit?action=release`);
    await expect.poll(() => page.getByRole('cell', { name: held.reference! }).count()).toBe(1);
    await page.close();
  });

  it('acknowledges and retries a delivery failed with 550', async () => {
    smtp.refuse({ code: 550, message: 'Mailbox unavailable' });
    const result = await postEnquiry(server.url, {
      firstName: 'Bounce',
      lastName: 'Test',
      email: `bounce.${Date.now()}@hospital.example`,
      organization: 'Bounce Hospital',
      subject: 'Bounce subject',
      message: '',
    });
    const page = await admin.newPage();
    const enquiry = `${server.url}/admin/enquiries/${result.reference}`;
    await until(async () => {
      await page.goto(enquiry);
      return (await page.getByText('550').count()) > 0;
    }, 30_000);
    await page.getByRole('button', { name: 'Acknowledge failures' }).click();
    await page.waitForURL(/notice=acknowledged/);
    await expect.poll(() => page.getByText('failed (acknowledged)').count()).toBe(1);
    smtp.refuse(null);
    await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
    await page.waitForURL(/notice=retried/);
    await mailsTo(LEADS_TO, `Website enquiry ${result.reference}`);
    await page.goto(`${server.url}/admin/audit`);
    await expect
      .poll(() => page.getByRole('cell', { name: 'Acknowledged failures' }).count())
      .toBe(1);
    await expect.poll(() => page.getByRole('cell', { name: 'Retried deliveries' }).count()).toBe(1);
    await page.close();
  });

  it('cancels a demo from the console: the host gets METHOD:CANCEL', async () => {
    const email = `demo.${Date.now()}@hospital.example`;
    await requestAndBook(server.url, {
      firstName: 'Demo',
      lastName: 'Visitor',
      email,
      organization: 'Demo Hospital',
    });
    const [invitation] = await mailsTo(email, 'Your Nirmaya HIMS demo');
    const reference = /NH-[0-9A-Z]{10}/.exec(invitation!.parsed.text ?? '')![0];

    const page = await admin.newPage();
    await page.goto(`${server.url}/admin/demos`);
    await page.getByRole('button', { name: `Cancel the demo of ${reference}` }).click();
    await page.waitForURL(/notice=cancelled/);
    await until(
      async () =>
        smtp.received.some(
          (mail) =>
            !mail.envelope.to.includes(email) &&
            mail.raw.includes('METHOD:CANCEL') &&
            mail.raw.includes(reference),
        ),
      30_000,
    );
    await page.goto(`${server.url}/admin/audit?action=cancel`);
    await expect.poll(() => page.getByRole('cell', { name: reference }).count()).toBe(1);
    await page.close();
  });

  it('shows a grievance due in 5 days marked on the privacy page, rings /api/health, and the reply closes it', async () => {
    const dueAt = await addPrivacyRequest('PR-BROWSER01', 'grievance', 5);
    await addPrivacyRequest('PR-BROWSER02', 'correct', 60);
    const health = async () =>
      (await (
        await fetch(`${server.url}/api/health`, {
          headers: { authorization: 'Bearer metrics-token-for-the-console-test' },
        })
      ).json()) as {
        status: string;
        reasons?: string[];
        privacy: { open: number; dueSoon: number; overdue: number; oldestDueAt: string | null };
      };
    const ringing = await health();
    expect(ringing.status).toBe('degraded');
    expect(ringing.reasons).toContain('privacy: 1 privacy request due within 7 days');
    expect(ringing.privacy).toEqual({
      open: 2,
      dueSoon: 1,
      overdue: 0,
      oldestDueAt: dueAt.toISOString(),
    });

    const page = await admin.newPage();
    await page.goto(`${server.url}/admin`);
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Privacy requests' })
      .click();
    await page.waitForURL(/\/admin\/privacy$/);
    const rows = page.locator('tbody tr');
    await expectPage(rows).toHaveCount(2);
    // The earliest due first, its due date marked in words.
    await expectPage(rows.first()).toContainText('PR-BROWSER01');
    await expectPage(rows.first()).toContainText(dueAt.toISOString().slice(0, 10));
    await expectPage(rows.first()).toContainText('Due within 7 days');
    await expectPage(rows.nth(1)).not.toContainText('Due within');
    await expectPage(page.getByText(PERSON)).toHaveCount(0);

    await page.getByRole('link', { name: 'PR-BROWSER01' }).click();
    await page.waitForURL(/\/admin\/privacy\/PR-BROWSER01$/);
    await expectPage(page.getByText(PERSON)).toHaveCount(1);
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.waitForURL(/notice=assigned/);
    await page
      .getByLabel('Reply to the person')
      .fill('We have looked into your grievance.\nPriya, for Nirmaya Health');
    await page.getByRole('button', { name: 'Send the reply and close the request' }).click();
    await page.waitForURL(/\/admin\/privacy\?notice=replied/);
    const [reply] = await mailsTo(PERSON, 'Your privacy request PR-BROWSER01');
    expect(reply!.parsed.text).toContain('We have looked into your grievance.');

    const quiet = await health();
    expect(quiet.privacy).toMatchObject({ open: 1, dueSoon: 0, overdue: 0 });
    expect(quiet.reasons ?? []).not.toContainEqual(expect.stringMatching(/^privacy:/));
    await page.goto(`${server.url}/admin/privacy?status=closed`);
    await expectPage(page.locator('tbody tr')).toHaveCount(1);
    await expectPage(page.locator('tbody tr').first()).toContainText('answered');
    await expectPage(page.getByText(PERSON)).toHaveCount(0);
    await page.goto(`${server.url}/admin/audit?q=PR-BROWSER01`);
    await expectPage(page.getByRole('cell', { name: 'Answered privacy request' })).toHaveCount(1);
    await expectPage(page.getByRole('cell', { name: 'Assigned privacy request' })).toHaveCount(1);
    await expectPage(page.getByText(PERSON)).toHaveCount(0);
    await page.close();
  });

  it('sales cannot open operators, the audit log or privacy requests (403), nor post an admin action; may export', async () => {
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin/operators`);
    await page.getByLabel('E-mail').fill(SALES);
    await page.getByRole('button', { name: 'Add operator' }).click();
    await page.waitForURL(/notice=added/);
    // The add form's hidden action fields, as the server renders them for an admin.
    const html = await (
      await fetch(`${server.url}/admin/operators`, { headers: { cookie: await cookieOf(admin) } })
    ).text();
    const addForm = html.split('<form').find((form) => form.includes('Add operator'))!;
    const adminForm = hiddenInputs(`<form${addForm}`);
    await page.close();

    const { context: sales, violations } = await signIn(SALES);
    const salesPage = await sales.newPage();
    for (const pathname of ['/admin/operators', '/admin/audit', '/admin/privacy']) {
      const response = await salesPage.goto(server.url + pathname);
      expect(response?.status(), pathname).toBe(403);
      await expect
        .poll(() => salesPage.getByRole('heading', { name: 'Not allowed' }).count())
        .toBe(1);
    }
    // The add-operator action posted directly with the sales session: refused, nothing added.
    expect(adminForm.some(([name]) => name.startsWith('$ACTION_REF_'))).toBe(true);
    const body = new FormData();
    for (const [name, value] of adminForm)
      body.append(
        name,
        name === 'email' ? 'intruder@elsewhere.example' : name === 'role' ? 'admin' : value,
      );
    const forged = await fetch(`${server.url}/admin/operators`, {
      method: 'POST',
      body,
      headers: { origin: server.url, cookie: await cookieOf(sales) },
      redirect: 'manual',
    });
    // Without JavaScript: to the page that answers 403.
    expect(forged.status).toBe(303);
    expect(forged.headers.get('location')).toBe('/admin/forbidden');
    const refusal = await fetch(`${server.url}/admin/forbidden`, {
      headers: { cookie: await cookieOf(sales) },
    });
    expect(refusal.status).toBe(403);
    expect(await refusal.text()).toContain('Not allowed');
    // As JavaScript sends it (the Next-Action header, the form as the second argument): 403.
    const actionId = /"id":"([0-9a-f]+)"/.exec(
      adminForm.find(([name]) => name.endsWith(':0'))![1],
    )![1]!;
    const fetched = new FormData();
    fetched.append('1_email', 'intruder@elsewhere.example');
    fetched.append('1_role', 'admin');
    fetched.append('0', '[null,"$K1"]');
    const viaScript = await fetch(`${server.url}/admin/operators`, {
      method: 'POST',
      body: fetched,
      headers: {
        origin: server.url,
        cookie: await cookieOf(sales),
        'next-action': actionId,
        accept: 'text/x-component',
      },
      redirect: 'manual',
    });
    expect(viaScript.status).toBe(403);
    const list = await admin.newPage();
    await list.goto(`${server.url}/admin/operators`);
    await expect.poll(() => list.getByText('intruder@elsewhere.example').count()).toBe(0);
    await list.close();

    // Export as sales (the inbox's POST form): a BOM, the header, the rows, formulas neutralised.
    const csv = await fetch(`${server.url}/admin/export.csv`, {
      method: 'POST',
      body: new URLSearchParams({ q: 'hospital.example' }),
      headers: { cookie: await cookieOf(sales), origin: server.url },
    });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split('\r\n')[0]).toMatch(/^"Reference","Received \(UTC\)"/);
    expect(text).toContain(`"'=HYPERLINK(""http://x.example"")"`);
    expect(text).not.toContain('intruder');
    expect(violations).toEqual([]);
    await sales.close();
  });

  it('works without JavaScript: sign in, search, and an action posted by the browser alone', async () => {
    const { context, violations } = await signIn(ADMIN, false, 375);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin?q=hospital.example`);
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.goto(`${server.url}/admin/operators`);
    await page.getByLabel('E-mail').fill('nojs@nirmaya.example');
    await page.getByRole('button', { name: 'Add operator' }).click();
    await page.waitForURL(/notice=added/);
    await expect.poll(() => page.getByText('nojs@nirmaya.example').count()).toBe(1);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('every console page is axe-clean at 375 and 1280 px, with screenshots at 375, 768 and 1280', async () => {
    const pages = [
      '/admin',
      '/admin/spam',
      '/admin/demos',
      '/admin/operators',
      '/admin/audit',
      '/admin/privacy',
      '/admin/privacy/PR-BROWSER02',
    ];
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin`);
    const first = await page.locator('tbody tr a').first().getAttribute('href');
    pages.push(first!);
    const problems: string[] = [];
    for (const width of [375, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const pathname of pages) {
        await page.goto(server.url + pathname);
        const name = pathname === first ? 'enquiry' : pathname.split('/').pop() || 'inbox';
        await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
        if (width !== 768) problems.push(...(await axeViolations(page, `${pathname} @${width}`)));
        // Wide tables scroll in their own box; the page itself never scrolls sideways.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        if (overflow > 0)
          problems.push(`${pathname} @${width}: ${overflow} px wider than the screen`);
      }
    }
    const anonymous = await browser.newContext({ viewport: { width: 375, height: 900 } });
    const signInPage = await anonymous.newPage();
    await signInPage.goto(`${server.url}/admin/sign-in`);
    await signInPage.screenshot({ path: path.join(SHOTS, 'sign-in-375.png'), fullPage: true });
    problems.push(...(await axeViolations(signInPage, '/admin/sign-in @375')));
    await anonymous.close();
    expect(problems).toEqual([]);
    expect(adminCsp).toEqual([]);
    await page.close();
  });

  it('signs out: the session ends and a sign-out row is written', async () => {
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin`);
    const cookie = await cookieOf(admin);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/sign-in$/);
    const after = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(307);
    // Without a session, no page or export shows an enquiry, an operator or a privacy request's
    // address or words, now that there are some (the redirect's body quotes only the path).
    for (const pathname of [
      '/admin',
      '/admin/spam',
      '/admin/operators',
      '/admin/privacy/PR-BROWSER02',
    ]) {
      const response = await fetch(server.url + pathname, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(response.headers.get('location'), pathname).toMatch(/\/admin\/sign-in$/);
      const body = await response.text();
      expect(body, pathname).not.toMatch(
        /hospital\.example|NH-[0-9A-Z]{10}|sam@nirmaya|in the person/,
      );
    }
    expect(server.output()).not.toContain(ADMIN);
    expect(server.output()).not.toContain(STRANGER);
    await page.close();
  });
});
