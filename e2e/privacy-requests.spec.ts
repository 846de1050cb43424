import AxeBuilder from '@axe-core/playwright';
import { backdateFormToken } from '../tests/support/form-token';
import { expect, test, type Page } from './fixtures';

/**
 * The privacy-request form in a real browser, JavaScript on and off, at 375 and 1280 px (both
 * projects): a server error keeps what was typed, shows the error summary and passes axe (WCAG
 * 2.2 AA; axe needs JavaScript, and e2e/a11y.spec.ts checks the page itself); a valid request gets
 * the one answer, whether the site holds data for the address or never saw it. Each test posts
 * from its own client address (X-Forwarded-For, honoured with TRUST_PROXY=1), so the rate limit
 * never couples tests.
 */

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test.beforeEach(async ({ context }, testInfo) => {
  const n = (testInfo.workerIndex * 1000 + Date.now()) % 16_000_000;
  await context.setExtraHTTPHeaders({
    'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
});

async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  return violations.flatMap(({ id, help, nodes }) =>
    nodes.map((node) => `${id}: ${help} — ${node.target.join(' ')}`),
  );
}

/**
 * Sends an enquiry from `email` through the contact form, so the site holds data for the address;
 * the form's token is backdated past its minimum age (the server runs with the specs'
 * FORM_SECRET, playwright.config.ts).
 */
async function sendEnquiry(page: Page, email: string): Promise<void> {
  await page.goto('/contact-us');
  for (const [name, value] of Object.entries({
    firstName: 'Asha',
    lastName: 'Rao',
    email,
    organization: 'City General Hospital',
    subject: 'Privacy test',
  }))
    await page.locator(`[name="${name}"]`).fill(value);
  await backdateFormToken(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('enquiry-reference')).toHaveText(/^NH-[0-9A-Z]{10}$/);
}

/**
 * Asks for a copy of the data of `email` and returns the answer: the status message and the text
 * of the whole main region once it shows (the address typed is not echoed, so two answers compare).
 */
async function askForCopy(page: Page, email: string): Promise<{ status: string; main: string }> {
  await page.goto('/privacy-requests');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('radio', { name: /^A copy of my data/ }).check();
  // Without JavaScript a post under the form's 3 s minimum comes back asking to press send again.
  await backdateFormToken(page);
  await page.getByRole('button', { name: 'Send me the link' }).click();
  const status = page.getByRole('main').getByRole('status').filter({ hasText: 'If we hold data' });
  await expect(status).toBeVisible();
  return { status: await status.innerText(), main: await page.getByRole('main').innerText() };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled, reducedMotion: 'reduce' });

    test('a correction without details is refused with the summary, what was typed kept', async ({
      page,
    }) => {
      await page.goto('/privacy-requests');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your data and your rights');
      await page.getByLabel('Email').fill('asha.rao@hospital.example');
      await page.getByRole('radio', { name: /^Correct my data/ }).check();
      await page.getByRole('button', { name: 'Send me the link' }).click();
      const summary = page.getByRole('main').getByRole('alert');
      await expect(summary).toContainText('Please correct the fields marked below');
      await expect(summary.getByRole('link', { name: /^Details:/ })).toBeVisible();
      await expect(page.getByLabel('Email')).toHaveValue('asha.rao@hospital.example');
      await expect(page.getByRole('radio', { name: /^Correct my data/ })).toBeChecked();
      await expect(page.getByRole('textbox', { name: /^Details/ })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      // axe runs in the page: with JavaScript off, the markup is the same as with it on.
      if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
    });

    test('any address gets the same answer: one the site holds data for and one it never saw', async ({
      page,
    }, testInfo) => {
      const tag = `${testInfo.project.name}-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}`;
      const known = `known.${tag}@hospital.example`;
      await sendEnquiry(page, known);
      const forKnown = await askForCopy(page, known);
      if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
      const forUnknown = await askForCopy(page, `never.${tag}@elsewhere.example`);
      expect(forKnown.status).toContain('If we hold data');
      expect(forUnknown).toEqual(forKnown);
    });

    test('the confirmation page shows a button and changes nothing on opening; a bad link says so', async ({
      page,
    }) => {
      await page.goto('/privacy-requests/confirm?token=p1.copy.x.y.z.1.sig');
      await expect(page.getByRole('button', { name: 'Confirm my request' })).toBeVisible();
      if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Confirm my request' }).click();
      await expect(page.getByRole('main').getByRole('alert')).toContainText(
        'This link is not valid',
      );
    });
  });
}
