import { expect, test } from './fixtures';
import { pages } from './routes';

/** The policy in a real browser: the site's own scripts run, anything injected does not. */

test('every page hydrates under its policy', async ({ page }) => {
  for (const { path } of [...pages, { path: '/products/abc' }, { path: '/products/03' }]) {
    await page.goto(path);
    // The Products menu and mobile menu are client components; React attaches its root to them.
    await expect
      .poll(
        () =>
          page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__react'))),
        { message: path },
      )
      .toBe(true);
  }
});

test('a 404 page hydrates under its policy', async ({ page }) => {
  for (const path of ['/no/such/page', '/products/9']) {
    expect((await page.goto(path))?.status()).toBe(404);
    await expect
      .poll(
        () =>
          page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__react'))),
        { message: path },
      )
      .toBe(true);
  }
});

test.describe('injected code is refused', () => {
  // Uses the plain page: these violations are the expected outcome, not a failure of the site.
  for (const path of ['/', '/contact-us']) {
    test(`an injected inline script on ${path}`, async ({ browser }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(path);
      const outcome = await page.evaluate(async () => {
        const blocked: string[] = [];
        document.addEventListener('securitypolicyviolation', (event) =>
          blocked.push(event.effectiveDirective),
        );
        const script = document.createElement('script');
        script.textContent = 'window.injected = true;';
        document.body.append(script);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { injected: 'injected' in window, blocked };
      });
      expect(outcome.injected).toBe(false);
      expect(outcome.blocked).toContain('script-src-elem');
      await context.close();
    });
  }
});
