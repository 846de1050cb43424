import { test as base, expect, type Page } from '@playwright/test';

// Everything else (`expect`, types such as `Page`) is Playwright's own; `test` below replaces its.
export * from '@playwright/test';

declare global {
  interface Window {
    __reportCspViolation?: (violation: string) => void;
  }
}

/**
 * Playwright's `test` with one addition: every page of the test's browser context reports
 * Content-Security-Policy violations (the `securitypolicyviolation` event, and Chromium's console
 * error for cases without one), and the test fails if there was any. Specs import from here
 * instead of `@playwright/test`.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    const violations: string[] = [];
    await context.exposeFunction('__reportCspViolation', (violation: string) =>
      violations.push(violation),
    );
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const where = event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : '';
        window.__reportCspViolation?.(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'} on ${location.href}${where}`,
        );
      });
    });
    context.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        violations.push(message.text());
      }
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});

/**
 * Makes the first interaction a visitor would, then waits until React has hydrated `page` (its root
 * is attached to the body). The public pages load the framework's scripts only on the visitor's
 * first press, touch, key or focus (src/lib/page-loader.ts), so what only JavaScript adds (arrow
 * keys between the product tabs) works from then on; links and forms work before. The interaction
 * is a press of Shift: a key that moves no focus, clicks nothing and scrolls nothing.
 * @param message what the poll's failure names (e.g. the path)
 */
export async function expectHydrated(page: Page, message?: string) {
  await page.keyboard.press('Shift');
  await expect
    .poll(
      () =>
        page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__react'))),
      { message },
    )
    .toBe(true);
}
