import type { Page } from '@playwright/test';

/**
 * Starts the framework as a visitor's first interaction does (src/lib/page-loader.ts) and waits
 * until React has hydrated the page. The interaction is a press of Shift: a key that moves no
 * focus, clicks nothing and scrolls nothing, so the page is as it was, only hydrated.
 * @throws playwright's TimeoutError when React has not hydrated within `timeout` ms (30,000)
 */
export async function startFramework(page: Page, timeout = 30_000): Promise<void> {
  await page.keyboard.press('Shift');
  await page.waitForFunction(
    () => Object.keys(document.body).some((key) => key.startsWith('__react')),
    undefined,
    { timeout },
  );
}
