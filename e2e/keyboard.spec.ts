import { backdateFormToken } from '../tests/support/form-token';
import { expect, test, type Locator, type Page } from './fixtures';
import { demoSubject } from '../src/content/navigation';

/**
 * A keyboard-only journey (desktop, 1280 px): skip link, the Products menu, a module, the tabs,
 * the demo call to action and the contact form, sent with the keyboard. Every element that takes
 * focus on the way shows a visible focus indicator (WCAG 2.4.7) and is not hidden under the
 * sticky header (WCAG 2.4.11).
 */
test.skip(({ isMobile }) => isMobile, 'the desktop navigation: desktop project only');

test.beforeEach(async ({ context }, testInfo) => {
  // Own client address per run, so the contact form's per-client rate limit never trips
  // (honoured when the server trusts the proxy header; harmless otherwise).
  const n = (testInfo.workerIndex * 7919 + Date.now()) % 16_000_000;
  await context.setExtraHTTPHeaders({
    'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
});

/** Asserts the focused element shows a focus indicator and is on screen, clear of the sticky header. */
async function expectVisibleFocus(page: Page) {
  const focus = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    // What is drawn at the centre of the element's visible part: the element itself (or a child),
    // not the sticky header or another layer above it.
    const top = Math.max(rect.top, 0);
    const bottom = Math.min(rect.bottom, window.innerHeight);
    const hit = document.elementFromPoint(rect.left + rect.width / 2, (top + bottom) / 2);
    return {
      name: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`,
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1,
      ring: style.boxShadow !== 'none',
      onScreen: bottom > top && rect.width > 1 && rect.height > 1,
      unobscured: hit !== null && element.contains(hit),
    };
  });
  expect(focus, 'something has focus').not.toBeNull();
  expect(focus!.outline || focus!.ring, `focus indicator on ${focus!.name}`).toBe(true);
  expect(focus!.onScreen, `${focus!.name} on screen`).toBe(true);
  expect(focus!.unobscured, `${focus!.name} not hidden under the sticky header`).toBe(true);
}

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus indicator at every stop. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 40 } = {}) {
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    await expectVisibleFocus(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${target} not reached in ${max} key presses`);
}

test('skip link, Products menu, module tabs and the contact form, by keyboard alone', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/');

  // The first Tab shows the skip link; Enter moves focus to the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expectVisibleFocus(page);
  expect(
    await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement)),
  ).toBe(true);

  // The Products menu (a <details>): Enter and Space toggle it; Tab reaches its links.
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const products = nav.locator('summary', { hasText: 'Products' });
  const menuLinks = nav.locator('details ul');
  await tabTo(page, products);
  await expect(menuLinks).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(menuLinks).toBeVisible();
  await page.keyboard.press('Space');
  await expect(menuLinks).toBeHidden();
  await page.keyboard.press('Space');
  await expect(menuLinks).toBeVisible();
  await tabTo(page, nav.getByRole('link', { name: 'Laboratory' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/products\/2$/);
  await expect(page.getByRole('tab', { selected: true })).toHaveText('Laboratory');

  // The tabs have one tab stop (roving tabindex): the selected tab; arrows move, Enter opens.
  const selected = page.getByRole('tab', { selected: true });
  await tabTo(page, selected);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel')).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Shift+Tab');
  await expect(selected).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const inpatient = page.getByRole('tab', { name: 'Inpatient Management' });
  await expect(inpatient).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/products\/3$/);
  await expect(inpatient).toHaveAttribute('aria-selected', 'true');
  expect(
    await page.getByRole('tab').evaluateAll((tabs) => tabs.map((tab) => tab.tabIndex)),
  ).toEqual([-1, -1, -1, 0, -1, -1, -1, -1, -1]);

  // On to the contact form through the module's "Schedule a Demo".
  await tabTo(page, page.getByRole('tabpanel').getByRole('link', { name: 'Schedule a Demo' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/contact-us\?subject=demo$/);

  const fields: [string, string][] = [
    ['First Name', 'Asha'],
    ['Last Name', 'Rao'],
    ['Email', 'asha.rao@hospital.example'],
    ['Organization', 'City General Hospital'],
  ];
  await tabTo(page, page.getByLabel('First Name'));
  for (const [index, [label, value]] of fields.entries()) {
    if (index > 0) await page.keyboard.press('Tab');
    await expect(page.getByLabel(label)).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.type(value);
  }
  await page.keyboard.press('Tab');
  const subject = page.getByLabel('Subject');
  await expect(subject).toBeFocused();
  await expect(subject).toHaveValue(demoSubject);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: /^Message/ })).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.type('We would like a demo of the Laboratory module.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Thank you.');

  const submit = page.getByRole('button', { name: 'Submit' });
  await tabTo(page, submit);
  // A form posted within 3 s of being rendered is a bot's: its token is backdated instead of
  // waiting (the server runs with the specs' FORM_SECRET, playwright.config.ts).
  await backdateFormToken(page);
  await page.keyboard.press('Enter');
  const thanks = page.getByRole('heading', { name: /Thank you/ });
  await expect(thanks).toBeVisible();
  await expect(thanks).toBeFocused();
});

test('tabbing backwards up a long page keeps focus clear of the sticky header', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/products/4');
  const footerLinks = page.getByRole('contentinfo').getByRole('link');
  await tabTo(page, footerLinks.last(), { max: 80 });
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }),
    {
      backwards: true,
      max: 80,
    },
  );
});
