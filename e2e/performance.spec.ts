import type { Page } from '@playwright/test';
import { expect, expectHydrated, test } from './fixtures';
import { mobileMenuToggle, toggleState } from './mobile-menu';
import { moduleTitles, pages } from './routes';
import { onDemandPaths } from '../src/content/routes';

/**
 * The speed budget's browser side (docs/performance.md, DESIGN.md §14): every page asks for no
 * script before it has loaded (prerendered pages: scripts/build/defer-scripts.ts; pages rendered
 * per request: the seam's rewrite, src/seam/page-rewrite.ts), only the visit beacon and the
 * page script after, and the framework's scripts only on the visitor's first interaction, after
 * which the page hydrates; the visit beacon goes after `load`, and again on a client-side
 * navigation; the navigation, the product tabs and the forms work with JavaScript on and off.
 */

const isMobile = (name: string) => name === 'mobile';

/** The page's script requests so far (URL paths, start times in ms) and when it loaded. */
function scriptTiming(page: Page) {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.initiatorType === 'script' || /\.js(\?|$)/.test(entry.name))
      .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime }));
    return { loaded: navigation!.loadEventStart, scripts, now: performance.now() };
  });
}

test('no script before the page has loaded, the framework only on the first interaction', async ({
  page,
}) => {
  const onDemand = pages.filter(({ path }) => (onDemandPaths as string[]).includes(path));
  expect(onDemand.length).toBeGreaterThan(0);
  for (const { path } of pages) {
    await page.goto(path);
    const { atLoad, framework } = await page.evaluate(() => {
      const loader = document.querySelector<HTMLScriptElement>('script[data-l]')!;
      const noModule = (loader.dataset.n ?? '').split(' ');
      return {
        atLoad: loader.dataset.a!.split(' '),
        framework: loader.dataset.l!.split(' ').filter((url) => !noModule.includes(url)),
      };
    });
    expect(atLoad, path).toHaveLength(2); // the visit beacon and the page script
    // Reading: the page loads, the beacon and the page script run, the network goes quiet.
    await page.waitForLoadState('networkidle');
    await page.mouse.wheel(0, 300);
    const read = await scriptTiming(page);
    expect(read.scripts.map((script) => script.path).sort(), path).toEqual([...atLoad].sort());
    expect(Math.min(...read.scripts.map((script) => script.start)), path).toBeGreaterThanOrEqual(
      read.loaded,
    );
    expect(
      await page.evaluate(() =>
        Object.keys(document.body).some((key) => key.startsWith('__react')),
      ),
      path,
    ).toBe(false);
    // The first interaction: every framework script comes after it, and the page hydrates.
    await expectHydrated(page, path);
    const used = await scriptTiming(page);
    const later = used.scripts.filter((script) => !atLoad.includes(script.path));
    for (const script of framework)
      expect(
        later.map((entry) => entry.path),
        path,
      ).toContain(script);
    expect(Math.min(...later.map((script) => script.start)), path).toBeGreaterThan(read.now);
  }
});

test('the visit beacon goes after load, never before, and on each client-side navigation', async ({
  page,
}) => {
  const beacons: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v') && request.method() === 'POST')
      beacons.push(JSON.parse(request.postData() ?? '{}').path);
  });
  await page.goto('/?utm_campaign=e2e');
  await expectHydrated(page);
  await expect.poll(() => beacons).toEqual(['/']);
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    const sent = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith('/api/v'))
      .map((entry) => entry.startTime);
    return { loaded: navigation!.loadEventEnd, sent };
  });
  expect(timing.sent).toHaveLength(1);
  expect(timing.sent[0]).toBeGreaterThanOrEqual(timing.loaded);
  // A client-side navigation (Next.js's router: history.pushState), then back (popstate).
  await page.getByRole('contentinfo').getByRole('link', { name: 'About Us' }).first().click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect.poll(() => beacons).toEqual(['/', '/about-us']);
  await page.goBack();
  await expect(page).toHaveURL(/\/\?utm_campaign=e2e$/);
  await expect.poll(() => beacons).toEqual(['/', '/about-us', '/']);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('the Products menu opens and leads to a module', async ({ page }, { project }) => {
      test.skip(isMobile(project.name), 'desktop navigation');
      await page.goto('/about-us');
      if (javaScriptEnabled) await expectHydrated(page);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menu = nav.locator('details ul');
      await expect(menu).toBeHidden();
      await expect(mobileMenuToggle(page)).toBeHidden();
      await nav.getByText('Products', { exact: true }).click();
      await expect(menu).toBeVisible();
      await expect(menu.getByRole('link')).toHaveText([...moduleTitles]);
      await menu.getByRole('link', { name: 'Laboratory' }).click();
      await expect(page).toHaveURL(/\/products\/2$/);
      await expect(page.getByRole('tab', { selected: true })).toHaveText('Laboratory');
    });

    test('the mobile menu opens and leads to a page at 375 px', async ({ page }, { project }) => {
      test.skip(!isMobile(project.name), 'mobile navigation');
      await page.goto('/about-us');
      if (javaScriptEnabled) await expectHydrated(page);
      await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'first'));
      const menu = page.getByRole('navigation', { name: 'Main' });
      await expect(menu).toBeHidden();
      expect(await toggleState(page)).toMatchObject({ name: 'Open menu', expanded: false });
      await mobileMenuToggle(page).click();
      await expect(menu).toBeVisible();
      expect(await toggleState(page)).toMatchObject({ name: 'Close menu', expanded: true });
      await expect(menu.getByRole('link', { name: 'About Us' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(menu.getByRole('list', { name: 'Products' }).getByRole('link')).toHaveText([
        ...moduleTitles,
      ]);
      await menu.getByRole('link', { name: 'Laboratory' }).click();
      await expect(page).toHaveURL(/\/products\/2$/);
      await expect(page.getByRole('tab', { selected: true })).toHaveText('Laboratory');
      await expect(menu).toBeHidden();
      // With JavaScript, Next.js's router navigates in the same document; without, a page load.
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
        javaScriptEnabled ? 'first' : undefined,
      );
    });

    test('the product tabs switch modules', async ({ page }) => {
      await page.goto('/products/0');
      if (javaScriptEnabled) await expectHydrated(page);
      await expect(page.getByRole('tab', { selected: true })).toHaveText(moduleTitles[0]);
      await page.getByRole('tab', { name: 'Billing & Accounting' }).click();
      await expect(page).toHaveURL(/\/products\/5$/);
      await expect(page.getByRole('tab', { selected: true })).toHaveText('Billing & Accounting');
      await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText(
        'Billing & Accounting',
      );
    });

    test('the footer reaches every page at 375 px', async ({ page }, { project }) => {
      test.skip(!isMobile(project.name), 'mobile layout');
      await page.goto('/');
      if (javaScriptEnabled) await expectHydrated(page);
      const footer = page.getByRole('contentinfo');
      await footer.getByRole('link', { name: 'Contact Us' }).first().click();
      await expect(page).toHaveURL(/\/contact-us$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    });

    test('the contact form shows its fields and refuses an empty form', async ({ page }) => {
      await page.goto('/contact-us');
      if (javaScriptEnabled) await expectHydrated(page);
      const form = page.locator('form').filter({ has: page.getByLabel('Organization') });
      await expect(form.getByLabel('Organization')).toBeVisible();
      await form.getByRole('button', { name: /send|submit/i }).click();
      // The browser blocks it (required fields): still on the form, nothing posted.
      await expect(page).toHaveURL(/\/contact-us$/);
      await expect(form.getByLabel('Organization')).toBeVisible();
    });
  });
}

test('no prerendered page prefetches a page rendered per request, whichever link comes into view', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A prefetch of such a page is a server render per page view, and it brought the form's client
  // code into the first load of the page that links to it (the privacy policy, when the request
  // form was prerendered).
  const prefetched: string[] = [];
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) prefetched.push(new URL(request.url()).pathname);
  });
  const prerendered = pages.filter(({ path }) => !(onDemandPaths as string[]).includes(path));
  for (const { path } of prerendered) {
    await page.goto(path);
    await expectHydrated(page, path);
    // Scroll through the page so that every link is in view once (Next.js prefetches links in view).
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    await page.waitForLoadState('networkidle');
  }
  expect(prefetched.length).toBeGreaterThan(0);
  expect(prefetched.filter((path) => (onDemandPaths as string[]).includes(path))).toEqual([]);
});

test('the first tap pays for hydration: its cost on /contact-us at 4x CPU, printed', async ({
  page,
}, { project }) => {
  test.skip(project.name !== 'desktop', 'one figure is enough');
  // What the visitor pays on the first interaction instead of after `load` (INP's risk): from the
  // tap in the form to React's root on the page, and to the form's first-interaction effect (the
  // proof of work's widget in the page), with the main thread's long tasks in between.
  await page.addInitScript(() => {
    const state = { tap: 0, longTasks: [] as Array<{ start: number; duration: number }> };
    (window as unknown as { __firstTap: typeof state }).__firstTap = state;
    addEventListener('pointerdown', () => (state.tap ||= performance.now()), true);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        state.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto('/contact-us');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('First Name').click();
  await page.keyboard.type('Asha');
  await page.locator('altcha-widget').waitFor({ state: 'attached', timeout: 30_000 });
  const figures = await page.evaluate(async () => {
    const state = (
      window as unknown as {
        __firstTap: { tap: number; longTasks: Array<{ start: number; duration: number }> };
      }
    ).__firstTap;
    const widget = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the last long tasks report
    const after = state.longTasks.filter((task) => task.start >= state.tap);
    return {
      widget: widget - state.tap,
      longest: Math.max(0, ...after.map((task) => task.duration)),
      blocking: after.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
      count: after.length,
      typed: (document.querySelector('input[name="firstName"]') as HTMLInputElement).value,
    };
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  console.log(
    `first tap on /contact-us at 4x CPU: the form's first-interaction effect ${Math.round(figures.widget)} ms after the tap; ${figures.count} long tasks after it, the longest ${Math.round(figures.longest)} ms, ${Math.round(figures.blocking)} ms blocking in all`,
  );
  expect(figures.typed).toBe('Asha');
});
