import { backdateFormToken } from '../tests/support/form-token';
import { E2E_METRICS_TOKEN } from '../tests/support/metrics-token';
import { expect, expectHydrated, test, type Page } from './fixtures';

/**
 * The contact form in a real browser, with JavaScript on and off: browser validation, server
 * errors with the typed values kept and focus on the first error, and the confirmation.
 * Each test posts from its own client address (X-Forwarded-For, honoured when the server runs
 * with TRUST_PROXY=1), so the per-client rate limit never couples tests or reruns.
 */

const visitor = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@hospital.example',
  organization: 'City General Hospital',
  subject: 'Laboratory module',
  message: 'Please tell us about the laboratory integration.\nThank you.',
};

test.beforeEach(async ({ context }, testInfo) => {
  const n =
    (testInfo.workerIndex * 1000 + testInfo.repeatEachIndex * 100 + Date.now()) % 16_000_000;
  await context.setExtraHTTPHeaders({
    'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
});

async function open(page: Page, path = '/contact-us') {
  await page.goto(path);
}

async function fill(page: Page, values: Partial<typeof visitor>) {
  for (const [name, value] of Object.entries(values))
    await page.locator(`[name="${name}"]`).fill(value);
}

/**
 * Submits the form at once. Without a proof of work (JavaScript off) the server quarantines a form
 * posted within 3 s of being rendered (bot check), so its token is first backdated: the server
 * runs with the specs' FORM_SECRET (playwright.config.ts).
 */
async function submitBackdated(page: Page) {
  await backdateFormToken(page);
  await page.getByRole('button', { name: 'Submit' }).click();
}

test('shows one heading, the labelled fields and the contact details', async ({ page }) => {
  await open(page);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('h1')).toHaveText('Contact Us');
  for (const label of ['First Name', 'Last Name', 'Email', 'Organization', 'Subject']) {
    await expect(page.getByLabel(label)).toHaveAttribute('required', '');
  }
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  // 100 characters by the length rule (code points) are at most 200 UTF-16 units.
  await expect(page.getByLabel('First Name')).toHaveAttribute('maxlength', '200');
  const message = page.getByRole('textbox', { name: /^Message/ });
  expect(Number(await message.getAttribute('rows'))).toBeGreaterThanOrEqual(5);
  await expect(message).not.toHaveAttribute('required', '');
  const details = page.getByRole('complementary', { name: 'Contact details' });
  await expect(details).toContainText('Bengaluru');
  await expect(details.getByRole('link', { name: /\+91/ })).toHaveAttribute('href', /^tel:\+91/);
  await expect(details.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(page.getByRole('link', { name: 'Privacy Policy' }).first()).toHaveAttribute(
    'href',
    '/privacy-policy',
  );
});

test('pre-fills the subject when coming from Schedule a Demo', async ({ page }) => {
  await open(page, '/contact-us?subject=demo');
  await expect(page.getByLabel('Subject')).toHaveValue('Request a demo of Nirmaya HIMS');
  await open(page);
  await expect(page.getByLabel('Subject')).toHaveValue('');
});

test('lets the browser block an empty form', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  expect(
    await page
      .getByLabel('First Name')
      .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
  ).toBe(true);
  await expect(page.getByRole('status')).toHaveText('');
});

test('keeps the honeypot away from autofill, the keyboard and screen readers', async ({ page }) => {
  await open(page);
  const trap = page.locator('input[name="xq_trap"]');
  await expect(trap).toHaveAttribute('autocomplete', 'off');
  await expect(trap).toHaveAttribute('tabindex', '-1');
  await expect(page.locator('div[aria-hidden="true"]').filter({ has: trap })).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: /leave this blank/i })).toHaveCount(0);
});

/** Code of the proof of work only: the widget's global (`$altcha`) and its worker's algorithm. */
const PROOF_CODE = /\$altcha|PBKDF2/;

/** Every script the browser context fetched, in order, with its body (workers' included). */
function watchScripts(page: Page): Array<{ url: string; body: Promise<string> }> {
  const scripts: Array<{ url: string; body: Promise<string> }> = [];
  page.context().on('response', (response) => {
    if (response.request().resourceType() === 'script' || /\.js(\?|$)/.test(response.url()))
      scripts.push({ url: response.url(), body: response.text().catch(() => '') });
  });
  return scripts;
}

/** The URLs of the `scripts` whose body holds proof-of-work code. */
async function proofScripts(scripts: Array<{ url: string; body: Promise<string> }>) {
  const bodies = await Promise.all(scripts.map((script) => script.body));
  return scripts.filter((_, i) => PROOF_CODE.test(bodies[i]!)).map((script) => script.url);
}

test('fetches the proof-of-work code on the contact page only, once the form is touched', async ({
  page,
}) => {
  const challenges: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/altcha')) challenges.push(request.url());
  });
  const scripts = watchScripts(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(challenges).toEqual([]);
  await expect(page.locator('altcha-widget')).toHaveCount(0);

  await open(page);
  await expectHydrated(page);
  await page.waitForLoadState('networkidle');
  const beforeTouch = scripts.length;
  expect(beforeTouch).toBeGreaterThan(0);
  expect(await proofScripts(scripts)).toEqual([]);
  expect(challenges).toEqual([]);
  await expect(page.locator('altcha-widget')).toHaveCount(0);

  await page.getByLabel('First Name').focus();
  const proof = page.getByRole('checkbox', { name: 'Verified' });
  await expect(proof).toBeVisible({ timeout: 20_000 });
  await expect(proof).toBeChecked();
  await expect(page.locator('input[type="hidden"][name="altcha"]')).toHaveValue(
    /^[A-Za-z0-9+/=]{40,}$/,
  );
  expect(challenges).toHaveLength(1);
  // The widget's chunk and its worker (whose fetch the browser may report a moment later), both
  // fetched after the first focus.
  await expect.poll(async () => (await proofScripts(scripts)).length).toBeGreaterThanOrEqual(2);
  const fetched = await proofScripts(scripts);
  expect(scripts.findIndex((script) => fetched.includes(script.url))).toBeGreaterThanOrEqual(
    beforeTouch,
  );
  console.log(
    `${beforeTouch} scripts before the form was touched, none with the proof of work; after: ${fetched.map((url) => new URL(url).pathname).join(', ')}`,
  );
});

test('a fast visitor on a slow connection: the submit waits for the late proof-of-work code', async ({
  page,
}) => {
  // Each script of the proof of work (the widget's two chunks, then its worker, one after the
  // other), and only they, arrives 1.5 s after it is asked for.
  const DELAY_MS = 1_500;
  await page.context().route('**/*.js', async (route) => {
    const response = await route.fetch();
    if (PROOF_CODE.test(await response.text()))
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    await route.fulfill({ response });
  });
  await open(page);
  await expectHydrated(page);
  const started = Date.now();
  await fill(page, visitor);
  const posted = page.waitForRequest((request) => request.method() === 'POST');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('button', { name: 'Sending…' })).toBeDisabled();
  const post = await posted;
  const postedAfter = Date.now() - started;
  await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/, {
    timeout: 30_000,
  });
  // Posted once, with the proof: the server takes it without the clock test.
  expect(post.postData()).toMatch(/name="(?:_\d+_)?altcha"\r\n\r\n[A-Za-z0-9+/=]{40,}/);
  expect(postedAfter).toBeGreaterThanOrEqual(DELAY_MS);
  console.log(`filled and sent at once; posted with a proof ${postedAfter} ms after the first key`);
});

test.describe('with JavaScript', () => {
  test('shows server errors without a reload, keeps the values and focuses the first error', async ({
    page,
  }) => {
    await open(page);
    // Posted without a reload: the framework must have hydrated (it starts on a first interaction).
    await expectHydrated(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await fill(page, { ...visitor, email: 'asha@hospital' });
    await submitBackdated(page);

    const email = page.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#contact-email-error')).toHaveText(/valid e-mail address/);
    await expect(email).toHaveAttribute('aria-describedby', 'contact-email-error');
    await expect(email).toBeFocused();
    await expect(page.getByRole('status')).toContainText('Please correct the fields');
    await expect(page.getByLabel('First Name')).toHaveValue(visitor.firstName);
    await expect(page.getByRole('textbox', { name: /^Message/ })).toHaveValue(visitor.message);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

    await email.fill(visitor.email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: /enquiry has been received/ })).toBeVisible();
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
    await expect(page.getByRole('status')).toContainText('Your reference number is NH-');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });

  test('says so in the form when the server refuses the post or the network fails, the values kept', async ({
    page,
  }) => {
    await open(page);
    // Posted without a reload: the framework must have hydrated (it starts on a first interaction).
    await expectHydrated(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await fill(page, visitor);
    const posts = (url: URL) => url.pathname === '/contact-us';
    // A page from before a deploy posts an action id the server no longer knows: the request guard
    // answers 404 (the real server's answer, only the id is changed on the way).
    await page.route(posts, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      return route.continue({
        headers: { ...(await request.allHeaders()), 'next-action': 'f'.repeat(42) },
      });
    });
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await submitBackdated(page);
    expect((await refused).status()).toBe(404);
    const alert = page.locator('form').getByRole('alert');
    await expect(alert).toHaveText(/This page is out of date and could not send your enquiry/);
    for (const [name, value] of Object.entries(visitor))
      await expect(page.locator(`[name="${name}"]`)).toHaveValue(value);

    await page.unroute(posts);
    await page.route(posts, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(alert).toHaveText(/the connection failed/);
    for (const [name, value] of Object.entries(visitor))
      await expect(page.locator(`[name="${name}"]`)).toHaveValue(value);

    // Nothing was lost: once the connection is back, the same form is sent.
    await page.unroute(posts);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('posts the page, shows errors with the values kept, then the confirmation', async ({
    page,
  }) => {
    await open(page);
    await fill(page, { ...visitor, organization: '   ' });
    await submitBackdated(page);

    const organization = page.getByLabel('Organization');
    await expect(organization).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#contact-organization-error')).toHaveText(
      'Enter your organization.',
    );
    await expect(organization).toBeFocused();
    await expect(page.getByRole('status')).toContainText('Please correct the fields');
    await expect(page.getByLabel('Last Name')).toHaveValue(visitor.lastName);
    await expect(page.getByRole('textbox', { name: /^Message/ })).toHaveValue(visitor.message);

    await organization.fill(visitor.organization);
    await submitBackdated(page);
    await expect(page.getByRole('heading', { name: /enquiry has been received/ })).toBeVisible();
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
  });

  test('fills and sends the form at once: posted without a proof of work and answered', async ({
    page,
  }) => {
    await open(page);
    await fill(page, visitor);
    const posted = page.waitForRequest((request) => request.method() === 'POST');
    await page.getByRole('button', { name: 'Submit' }).click();
    // The server's clock test decides instead (tests/production/contact-fast-submit.test.ts reads
    // the verdict); the visitor is answered as any other.
    expect((await posted).postData()).not.toMatch(/name="altcha"/);
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
  });
});

test('reports the database in the health check, its details to the METRICS_TOKEN bearer only', async ({
  request,
}) => {
  const anonymous = await request.get('/api/health');
  expect([anonymous.status(), await anonymous.json()]).toEqual([200, { status: 'ok' }]);
  const response = await request.get('/api/health', {
    headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` },
  });
  expect(response.status()).toBe(200);
  // Without SMTP_URL (as here) jobs pile up, so delivery may be `degraded` once they are old.
  expect(await response.json()).toMatchObject({
    status: expect.stringMatching(/^(ok|degraded)$/),
    delivery: {
      pending: expect.any(Number),
      oldestPendingSeconds: expect.any(Number),
      failed: expect.any(Number),
      quarantined: expect.any(Number),
    },
  });
});

test('posts the demo request and the page the visitor came from as hidden fields', async ({
  page,
}) => {
  await page.goto('/products');
  // The module panel's call to action (the header's is hidden below 600 px).
  await page.getByRole('main').getByRole('link', { name: 'Schedule a Demo' }).first().click();
  await expect(page).toHaveURL(/\/contact-us\?subject=demo$/);
  await expect(page.locator('input[type="hidden"][name="demoRequested"]')).toHaveValue('1');
  await expect(page.locator('input[type="hidden"][name="sourcePage"]')).toHaveValue('/products');

  await open(page);
  await expect(page.locator('input[name="demoRequested"]')).toHaveCount(0);
  await expect(page.locator('input[name="sourcePage"]')).toHaveCount(0);
});

test.describe('typed before the framework has hydrated', () => {
  /**
   * Holds the framework's files back (they are asked for on the visitor's first interaction:
   * src/lib/page-loader.ts) until the returned function is called, so that the visitor types
   * before the page hydrates; those asked for after come at once.
   */
  async function holdFramework(page: Page): Promise<() => void> {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_next/static/chunks/**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }
  const hydrated = (page: Page) =>
    page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__react')));
  /** 170 characters: over 80% of the organization's 200, so its count shows. */
  const organization = 'Department of Laboratory Medicine, City General Hospital; '
    .repeat(3)
    .slice(0, 170);

  test('every character is kept, the count catches up and the proof of work starts', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const release = await holdFramework(page);
    await open(page);
    const started = Date.now();
    // A tap in the first field starts the framework; the visitor types on at once.
    await page.getByLabel('First Name').click();
    await page.keyboard.type(visitor.firstName);
    await page.keyboard.press('Tab');
    await page.keyboard.type(visitor.lastName);
    await page.getByLabel('Organization').click();
    await page.keyboard.type(organization);
    const typedAfter = Date.now() - started;
    expect(await hydrated(page), 'typed before hydration').toBe(false);
    release();
    await expect.poll(() => hydrated(page), { timeout: 20_000 }).toBe(true);
    console.log(
      `typed ${visitor.firstName.length + visitor.lastName.length + 170} characters in ${typedAfter} ms, then the page hydrated`,
    );
    await expect(page.getByLabel('First Name')).toHaveValue(visitor.firstName);
    await expect(page.getByLabel('Last Name')).toHaveValue(visitor.lastName);
    await expect(page.getByLabel('Organization')).toHaveValue(organization);
    await expect(page.locator('#contact-organization-count')).toHaveText('170 of 200 characters');
    // The interaction that started the framework was in the form: the proof of work starts.
    await expect(page.getByRole('checkbox', { name: 'Verified' })).toBeChecked({ timeout: 20_000 });
    await fill(page, { email: visitor.email, subject: visitor.subject, message: visitor.message });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/, {
      timeout: 30_000,
    });
    await expect(page.getByRole('heading', { name: /enquiry has been received/ })).toBeVisible();
  });

  test('a submit before hydration posts the form natively and is answered', async ({ page }) => {
    await holdFramework(page);
    await open(page);
    await fill(page, visitor);
    const posted = page.waitForRequest((request) => request.method() === 'POST');
    await submitBackdated(page);
    const post = await posted;
    // The browser's own post (no JavaScript yet): no proof of work, and a new document.
    expect(post.isNavigationRequest()).toBe(true);
    expect(post.postData()).not.toMatch(/name="altcha"/);
    await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
  });
});
