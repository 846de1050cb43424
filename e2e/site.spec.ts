import type { Page } from '@playwright/test';
import { expect, expectHydrated, test } from './fixtures';
import { mobileMenuToggle, toggleState } from './mobile-menu';
import { moduleTitles, pages } from './routes';

const isMobile = (name: string) => name === 'mobile';

test.describe('routes', () => {
  for (const { path, heading } of pages) {
    test(`${path} answers 200 with its heading`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.locator('h1')).toHaveCount(1);
    });
  }

  for (const path of ['/resources', '/products/9', '/products/-1', '/no/such/page']) {
    test(`${path} answers 404 with the not-found page, header and footer`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      const main = page.getByRole('main');
      await expect(main.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
        'href',
        '/',
      );
      for (const [index, title] of moduleTitles.entries()) {
        await expect(main.getByRole('link', { name: title, exact: true })).toHaveAttribute(
          'href',
          `/products/${index}`,
        );
      }
    });
  }

  test('the 404 page shows the trail of the URL asked for, never its own path', async ({
    browser,
  }) => {
    const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });
    const withScripts = await browser.newPage();
    const errors: string[] = [];
    withScripts.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('404'))
        errors.push(message.text());
    });
    await withScripts.goto('/no-such/page');
    await expect(breadcrumb(withScripts).getByRole('link')).toHaveText(['Home', 'No Such', 'Page']);
    expect(errors, 'no hydration error').toEqual([]);
    const withoutScripts = await browser.newPage({ javaScriptEnabled: false });
    await withoutScripts.goto('/no-such/page');
    await expect(withoutScripts.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(breadcrumb(withoutScripts)).toHaveCount(0);
    await expect(withoutScripts.getByText('Not Found', { exact: true })).toHaveCount(0);
    await Promise.all([withScripts.close(), withoutScripts.close()]);
  });
});

test.describe('navigation bar', () => {
  test('Products dropdown lists the nine modules in order with their links', async ({ page }, {
    project,
  }) => {
    test.skip(isMobile(project.name), 'desktop navigation');
    await page.goto('/about-us');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'About Us', 'Contact Us']);
    const toggle = nav.getByText('Products', { exact: true });
    const menu = nav.locator('details ul');
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    const links = menu.getByRole('link');
    await expect(links).toHaveText([...moduleTitles]);
    for (const [index] of moduleTitles.entries()) {
      await expect(links.nth(index)).toHaveAttribute('href', `/products/${index}`);
    }
    // Escape is the framework's, which the click that opened the menu started.
    await expectHydrated(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Schedule a Demo' }),
    ).toHaveAttribute('href', '/contact-us?subject=demo');
  });

  test('switching modules from the menu changes the tab without a full page load', async ({
    page,
  }, { project }) => {
    test.skip(isMobile(project.name), 'desktop navigation');
    await page.goto('/products/1');
    await expect(page.getByRole('tab', { selected: true })).toHaveText('Clinical Services');
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByText('Products', { exact: true })
      .click();
    // Opening the menu was the first interaction: the framework starts, and routes what follows.
    await expectHydrated(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'PACS Integration' })
      .click();
    await expect(page).toHaveURL(/\/products\/7$/);
    await expect(page.getByRole('tab', { selected: true })).toHaveText('PACS Integration');
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText(
      'PACS Integration',
    );
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
      'same document',
    );
  });

  test('the mobile menu opens and closes at 375 px', async ({ page }, { project }) => {
    test.skip(!isMobile(project.name), 'mobile navigation');
    await page.goto('/');
    await expectHydrated(page);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    // A native disclosure (<details>): screen readers get an expandable button, named by its state.
    const toggle = mobileMenuToggle(page);
    const closed = { role: 'DisclosureTriangle', name: 'Open menu', expanded: false };
    const open = { ...closed, name: 'Close menu', expanded: true };
    expect(await toggleState(page)).toEqual(closed);
    await toggle.click();
    expect(await toggleState(page)).toEqual(open);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
    await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('list', { name: 'Products' }).getByRole('link')).toHaveText([
      ...moduleTitles,
    ]);
    // Escape closes it and gives focus back to the toggle.
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
    expect(await toggleState(page)).toEqual(closed);
    // By keyboard: Enter on the toggle opens it with focus on the first link.
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    // The toggle closes it too, as does a click outside; choosing a link closes it and navigates
    // in the same document.
    await toggle.click();
    await toggle.click();
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    // The panel covers the page below the header: outside it is the header's free space.
    await page.getByRole('banner').click({ position: { x: 260, y: 32 } });
    await expect(menu).toBeHidden();
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    await toggle.click();
    await menu.getByRole('link', { name: 'Laboratory' }).click();
    await expect(page).toHaveURL(/\/products\/2$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('tab', { selected: true })).toHaveText('Laboratory');
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
      'same document',
    );
    await toggle.click();
    await expect(menu.getByRole('link', { name: 'Laboratory' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

test.describe('product tabs', () => {
  const cases = [
    ['/products', 0],
    ['/products/0', 0],
    ['/products/3', 3],
    ['/products/8', 8],
    ['/products/03', 3],
    ['/products/abc', 0],
  ] as const;
  for (const [path, index] of cases) {
    test(`${path} selects tab ${index}`, async ({ page }) => {
      expect((await page.goto(path))?.status()).toBe(200);
      const tabs = page.getByRole('tab');
      await expect(tabs).toHaveText([...moduleTitles]);
      await expect(page.getByRole('tab', { selected: true })).toHaveText(moduleTitles[index]);
      await expect(page.getByRole('tabpanel')).toHaveAttribute(
        'aria-labelledby',
        `product-tab-${index}`,
      );
      await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText(
        moduleTitles[index],
      );
    });
  }

  test('tabs are vertical at 968 px and horizontal at 967 px', async ({ page }) => {
    const geometry = async () => {
      const [a, b] = await Promise.all(
        [0, 1].map((i) => page.getByRole('tab').nth(i).boundingBox()),
      );
      return { sameRow: Math.abs(a!.y - b!.y) < 2, sameColumn: Math.abs(a!.x - b!.x) < 2 };
    };
    await page.setViewportSize({ width: 968, height: 800 });
    await page.goto('/products/2');
    await expect(page.getByRole('tablist')).toHaveAttribute('aria-orientation', 'vertical');
    expect(await geometry()).toEqual({ sameRow: false, sameColumn: true });
    await page.setViewportSize({ width: 967, height: 800 });
    await expect(page.getByRole('tablist')).toHaveAttribute('aria-orientation', 'horizontal');
    expect(await geometry()).toEqual({ sameRow: true, sameColumn: false });
  });

  test('arrow keys move between tabs and Enter opens one', async ({ page }) => {
    await page.goto('/products/0');
    await expectHydrated(page);
    await page.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('tab', { name: 'Clinical Services' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Laboratory' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('tab', { name: 'SNOMED CT Support' })).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/products\/8$/);
    await expect(page.getByRole('tab', { selected: true })).toHaveText('SNOMED CT Support');
  });

  test('each panel is server-rendered module content of at least 150 words', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [index, title] of moduleTitles.entries()) {
      await page.goto(`/products/${index}`);
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('heading', { level: 2 })).toHaveText(title);
      const words = (await panel.innerText()).split(/\s+/).filter(Boolean).length;
      expect(words, title).toBeGreaterThanOrEqual(150);
    }
    await context.close();
  });
});

test.describe('breadcrumbs', () => {
  const cases: [string, string[]][] = [
    ['/products/3', ['Home', 'Products']],
    ['/products', ['Home', 'Products']],
    ['/products/0', ['Home', 'Products', '0']],
    ['/about-us', ['Home', 'About Us']],
    ['/contact-us', ['Home', 'Contact Us']],
    ['/terms-conditions', ['Home', 'Terms Conditions']],
    ['/privacy-policy', ['Home', 'Privacy Policy']],
    ['/accessibility', ['Home', 'Accessibility']],
  ];
  for (const [path, labels] of cases) {
    test(`${path}: ${labels.join(' > ')}`, async ({ page }) => {
      await page.goto(path);
      const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
      const links = trail.getByRole('link');
      await expect(links).toHaveText(labels);
      await expect(links.first()).toHaveAttribute('href', '/');
      await expect(links.last()).toHaveAttribute('aria-current', 'page');
      await expect(trail.locator('[aria-current]')).toHaveCount(1);
      await expect(trail.locator('svg.lucide-chevron-right')).toHaveCount(labels.length - 1);
    });
  }

  test('home has no breadcrumb', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0);
  });
});

test('links prefetch prerendered pages, but not the contact form nor the page being shown', async ({
  page,
}) => {
  const prefetched: string[] = [];
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) prefetched.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  // Nothing is prefetched before the framework starts, on the visitor's first interaction
  // (src/lib/page-loader.ts); until then a link loads its page as a plain link does.
  expect(prefetched).toEqual([]);
  await expectHydrated(page);
  // The hero's "Schedule a Demo" link (and the header's, from 600 px) and the logo are in view;
  // on the desktop so is the navigation bar, with Home marked as the page being shown.
  await expect(page.getByRole('link', { name: 'Schedule a Demo' }).first()).toBeVisible();
  await expect.poll(() => prefetched.length).toBeGreaterThan(0);
  expect(prefetched).not.toContain('/contact-us');
  expect(prefetched).not.toContain('/');
});

test('opening the mobile menu prefetches the pages it leads to, but not the contact form nor the page being shown', async ({
  page,
}, { project }) => {
  test.skip(!isMobile(project.name), 'mobile navigation');
  const prefetched = new Set<string>();
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) prefetched.add(new URL(request.url()).pathname);
  });
  await page.goto('/about-us');
  await expectHydrated(page);
  await page.waitForLoadState('networkidle');
  const modules = moduleTitles.map((_, index) => `/products/${index}`);
  // The menu's links are plain <a> elements: nothing of them is prefetched while it is closed.
  expect(modules.filter((path) => prefetched.has(path))).toEqual([]);
  await mobileMenuToggle(page).click();
  await expect.poll(() => modules.filter((path) => prefetched.has(path))).toEqual(modules);
  await page.waitForLoadState('networkidle');
  expect(prefetched).not.toContain('/contact-us');
  expect(prefetched).not.toContain('/about-us');
});

test('every route change scrolls to the top', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Stock Management' }).click();
  await expect(page).toHaveURL(/\/products\/4$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // A tab change within the product layout scrolls to the top too.
  const next = page.getByRole('tabpanel').getByRole('link', { name: 'Billing & Accounting' });
  await next.scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await next.click();
  await expect(page).toHaveURL(/\/products\/5$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('footer: company, legal and service links, contact block, social icons, year', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'About Us' })).toHaveAttribute('href', '/about-us');
  await expect(footer.getByRole('link', { name: 'Terms & Conditions' })).toHaveAttribute(
    'href',
    '/terms-conditions',
  );
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    '/privacy-policy',
  );
  for (const [index, title] of moduleTitles.entries()) {
    await expect(footer.getByRole('link', { name: title, exact: true })).toHaveAttribute(
      'href',
      `/products/${index}`,
    );
  }
  await expect(footer.locator('address')).toContainText('Bengaluru');
  await expect(footer.getByRole('link', { name: '+91 80 0000 0000' })).toHaveAttribute(
    'href',
    'tel:+918000000000',
  );
  await expect(footer.getByRole('link', { name: 'hello@nirmaya.example' })).toHaveAttribute(
    'href',
    'mailto:hello@nirmaya.example',
  );
  const social = footer.getByRole('list', { name: 'Social media' }).getByRole('listitem');
  await expect(social).toHaveCount(3);
  for (const name of ['LinkedIn', 'X', 'YouTube']) {
    await expect(footer.getByRole('img', { name: new RegExp(`^${name}\\b`) })).toBeVisible();
  }
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Nirmaya Health`);
});

test("the copyright year follows the visitor's clock, not the build", async ({ page }) => {
  await page.clock.setFixedTime(new Date('2031-03-01T10:00:00Z'));
  await page.goto('/about-us');
  await expect(page.getByRole('contentinfo')).toContainText('© 2031 Nirmaya Health');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  for (const { path, heading } of pages) {
    test(`${path} shows all its text`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      // Nothing is left hidden by the reveal animation.
      const hidden = await page
        .locator('[data-reveal]')
        .evaluateAll(
          (elements) => elements.filter((el) => getComputedStyle(el).opacity !== '1').length,
        );
      expect(hidden).toBe(0);
      const words = (await page.getByRole('main').innerText()).split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThan(60);
    });
  }
});

test('below-the-fold sections reveal when scrolled into view', async ({ page }) => {
  await page.goto('/');
  const card = page.locator('section[aria-labelledby="modules-heading"] [data-reveal]').last();
  await expect(card).toHaveAttribute('data-reveal', 'pending');
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveAttribute('data-reveal', 'shown');
  await expect.poll(() => card.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
});

test.describe('under prefers-reduced-motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('nothing moves: no hero animation, no reveal', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('.animate-hero-rise');
    const duration = await hero.evaluate((el) =>
      parseFloat(getComputedStyle(el).animationDuration),
    );
    expect(duration).toBeLessThan(0.001);
    await expect(page.locator('[data-reveal="pending"]')).toHaveCount(0);
    const card = page.locator('section[aria-labelledby="modules-heading"] [data-reveal]').last();
    expect(await card.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });
});

test('the hero rises 50 px and fades in over 0.5 s', async ({ page }) => {
  await page.goto('/');
  const style = await page.locator('.animate-hero-rise').evaluate((el) => {
    const s = getComputedStyle(el);
    const [keyframes] = el.getAnimations().map((a) => (a.effect as KeyframeEffect).getKeyframes());
    return { duration: s.animationDuration, first: keyframes?.[0] };
  });
  expect(style.duration).toBe('0.5s');
  expect(style.first).toMatchObject({ opacity: '0', transform: 'translateY(50px)' });
});
