import { expect, test } from './fixtures';

/**
 * Every internal link resolves: starting from `/`, visit each same-origin page the site links to
 * (as rendered in the browser, menus included), collect its links, and check each answers 200.
 * Links are deduplicated by path and query (the hash is dropped); the crawl is bounded.
 */
test.skip(
  ({ isMobile }) => isMobile,
  'the links are the same at every width: desktop project only',
);

const MAX_PAGES = 100;

test('every internal link on every page answers 200', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const queue = ['/'];
  const seen = new Set(queue);
  const linkedFrom = new Map<string, string>([['/', '(start)']]);
  const failures: string[] = [];

  while (queue.length > 0) {
    const path = queue.shift()!;
    expect(seen.size, 'crawl bound').toBeLessThanOrEqual(MAX_PAGES);
    const response = await page.goto(path);
    const status = response?.status();
    if (status !== 200) {
      failures.push(`${path} → ${status} (linked from ${linkedFrom.get(path)})`);
      continue;
    }
    if (!response?.headers()['content-type']?.includes('text/html')) continue;
    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const target = url.pathname + url.search;
      if (seen.has(target)) continue;
      seen.add(target);
      linkedFrom.set(target, path);
      queue.push(target);
    }
  }

  expect(failures).toEqual([]);
  // The crawl reached the whole site: the pages, the nine modules and the demo link.
  expect([...seen]).toEqual(
    expect.arrayContaining([
      '/about-us',
      '/contact-us',
      '/contact-us?subject=demo',
      '/terms-conditions',
      '/privacy-policy',
      '/accessibility',
      ...Array.from({ length: 9 }, (_, index) => `/products/${index}`),
    ]),
  );
});
