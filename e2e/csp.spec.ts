import { expect, expectHydrated, test } from './fixtures';
import { pages } from './routes';

/** The policy in a real browser: the site's own scripts run, anything injected does not. */

test('every page hydrates under its policy', async ({ page }) => {
  for (const { path } of [...pages, { path: '/products/abc' }, { path: '/products/03' }]) {
    await page.goto(path);
    await expectHydrated(page, path);
  }
});

test('a 404 page hydrates under its policy', async ({ page }) => {
  for (const path of ['/no/such/page', '/products/9']) {
    expect((await page.goto(path))?.status()).toBe(404);
    await expectHydrated(page, path);
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

test('violation reports are accepted where the policy sends them', async ({ request, baseURL }) => {
  const policy = (await request.get('/')).headers()['content-security-policy'] ?? '';
  const endpoint = /report-uri (\S+?)(;|$)/.exec(policy)?.[1];
  expect(endpoint).toBe('/api/csp-report');
  const report = {
    'csp-report': {
      'document-uri': `${baseURL}/`,
      'blocked-uri': 'inline',
      'effective-directive': 'script-src-elem',
    },
  };
  const accepted = await request.post(endpoint!, {
    data: JSON.stringify(report),
    headers: { 'content-type': 'application/csp-report' },
  });
  expect(accepted.status()).toBe(204);
  const refused = await request.post(endpoint!, {
    data: '{"not":"a report"}',
    headers: { 'content-type': 'application/json' },
  });
  expect(refused.status()).toBe(400);
});
