import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { modules } from '../src/content/modules';
import { canonicalPaths, onDemandPaths, pageRoutes } from '../src/content/routes';
import { site } from '../src/content/site';

/**
 * Search and sharing: per-route metadata, share images, icons, manifest, sitemap, robots.txt,
 * JSON-LD and llms.txt, read from the production build. Metadata does not depend on the
 * viewport, so these run in the desktop project only.
 *
 * Absolute URLs carry `SITE_URL` as it was at build time for prerendered pages (`npm run
 * test:e2e` builds and tests in the same environment) and at request time for the pages rendered
 * on demand, so URLs are compared by path, and the origin is checked on a prerendered page.
 */
test.skip(({ isMobile }) => isMobile, 'metadata is viewport-independent: desktop project only');

const buildSiteOrigin = new URL(process.env.SITE_URL || 'http://localhost:3000').origin;

/** A route, the canonical path it names, and its expected `<title>`. */
type Case = { path: string; canonical: string; title: string; prerendered: boolean };
const cases: Case[] = [
  ...pageRoutes.map(({ path, title }) => ({
    path,
    canonical: path,
    title:
      path === '/'
        ? `${site.product}: hospital information management | ${site.name}`
        : `${title} | ${site.name}`,
    prerendered: !(onDemandPaths as string[]).includes(path),
  })),
  ...modules.map(({ link, title }) => ({
    path: link,
    canonical: link,
    title: `${title} | ${site.name}`,
    prerendered: true,
  })),
  {
    path: '/products',
    canonical: '/products/0',
    title: `Products | ${site.name}`,
    prerendered: true,
  },
  {
    path: '/products/abc',
    canonical: '/products/0',
    title: `Registration | ${site.name}`,
    prerendered: false,
  },
];

const meta = (page: Page, key: string) =>
  page
    .locator(`head meta[property="${key}"], head meta[name="${key}"]`)
    .first()
    .getAttribute('content');
const pathOf = (url: string | null) => (url === null ? null : new URL(url).pathname);

/** The JSON-LD documents of the page, parsed. */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((text) => JSON.parse(text) as Record<string, unknown>);
}

/** Fetches a site URL by its path from the test server; returns status, type and PNG size. */
async function fetchImage(request: APIRequestContext, url: string) {
  const { pathname, search } = new URL(url);
  const response = await request.get(pathname + search);
  const body = await response.body();
  // PNG: width and height are the big-endian words at bytes 16 and 20 (IHDR).
  const png = body.subarray(1, 4).toString() === 'PNG';
  return {
    status: response.status(),
    type: response.headers()['content-type'],
    size: png ? { width: body.readUInt32BE(16), height: body.readUInt32BE(20) } : null,
    body,
  };
}

for (const { path, canonical, title, prerendered } of cases) {
  test(`${path}: title, description, canonical ${canonical}, Open Graph and X card`, async ({
    page,
    request,
  }) => {
    expect((await page.goto(path))?.status()).toBe(200);
    await expect(page).toHaveTitle(title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    const description = await meta(page, 'description');
    expect(description?.length).toBeGreaterThan(50);
    const canonicalUrl = await page.locator('head link[rel="canonical"]').getAttribute('href');
    expect(pathOf(canonicalUrl)?.replace(/^$/, '/')).toBe(canonical);
    if (prerendered) expect(new URL(canonicalUrl!).origin).toBe(buildSiteOrigin);

    expect(await meta(page, 'og:url')).toBe(canonicalUrl);
    expect(await meta(page, 'og:type')).toBe('website');
    expect(await meta(page, 'og:site_name')).toBe(site.name);
    expect(title).toContain(await meta(page, 'og:title'));
    expect(await meta(page, 'og:description')).toBe(description);
    expect(await meta(page, 'twitter:card')).toBe('summary_large_image');

    const ogImage = await meta(page, 'og:image');
    expect(ogImage).toBeTruthy();
    expect(await meta(page, 'twitter:image')).toBe(ogImage);
    expect(new URL(ogImage!).origin).toBe(new URL(canonicalUrl!).origin);
    expect(await meta(page, 'og:image:alt')).toBeTruthy();
    const image = await fetchImage(request, ogImage!);
    expect(image).toMatchObject({
      status: 200,
      type: 'image/png',
      size: { width: 1200, height: 630 },
    });
  });
}

test('each module page shares an image of its own, named after the module', async ({
  page,
  request,
}) => {
  const images = new Set<string>();
  for (const { link, title } of modules) {
    await page.goto(link);
    expect(await meta(page, 'og:image:alt')).toBe(`${title}: ${site.product} module`);
    const { body } = await fetchImage(request, (await meta(page, 'og:image'))!);
    images.add(body.toString('base64'));
  }
  expect(images.size).toBe(modules.length);
});

test('icons, theme colour and web app manifest', async ({ page, request }) => {
  await page.goto('/');
  expect(await meta(page, 'theme-color')).toBe('#15803d');
  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveAttribute('type', 'image/svg+xml');
  const iconResponse = await request.get((await icon.getAttribute('href'))!);
  expect(iconResponse.status()).toBe(200);
  expect(await iconResponse.text()).toContain('<svg');
  const apple = await fetchImage(
    request,
    new URL(
      (await page.locator('head link[rel="apple-touch-icon"]').getAttribute('href'))!,
      page.url(),
    ).href,
  );
  expect(apple).toMatchObject({
    status: 200,
    type: 'image/png',
    size: { width: 180, height: 180 },
  });

  const manifestResponse = await request.get(
    (await page.locator('head link[rel="manifest"]').getAttribute('href'))!,
  );
  expect(manifestResponse.status()).toBe(200);
  const manifest = (await manifestResponse.json()) as {
    name: string;
    theme_color: string;
    icons: { src: string }[];
  };
  expect(manifest).toMatchObject({ short_name: site.name, start_url: '/', theme_color: '#15803d' });
  for (const { src } of manifest.icons) expect((await request.get(src)).status(), src).toBe(200);
});

test('sitemap.xml lists every canonical URL once, and each answers 200', async ({ request }) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('xml');
  const locs = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => match[1]!,
  );
  expect(locs.map((loc) => new URL(loc).origin)).toEqual(locs.map(() => buildSiteOrigin));
  const paths = locs.map((loc) => new URL(loc).pathname);
  expect(paths).toEqual([...canonicalPaths]);
  expect(paths).toEqual(
    expect.arrayContaining(['/', '/about-us', '/contact-us', '/products/0', '/products/8']),
  );
  expect(paths).not.toContain('/products');
  for (const path of paths) expect((await request.get(path)).status(), path).toBe(200);
});

test('robots.txt allows the site, keeps crawlers out of the API and the console, names the sitemap', async ({
  request,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  const text = await response.text();
  expect(text).toMatch(/^User-Agent: \*$/m);
  expect(text).toMatch(/^Allow: \/$/m);
  expect(text).toMatch(/^Disallow: \/api\/$/m);
  expect(text).toMatch(/^Disallow: \/admin$/m);
  expect(text).toContain(`Sitemap: ${buildSiteOrigin}/sitemap.xml`);
});

test('the 404 page asks not to be indexed', async ({ page }) => {
  expect((await page.goto('/no/such/page'))?.status()).toBe(404);
  expect(await meta(page, 'robots')).toContain('noindex');
});

test.describe('JSON-LD', () => {
  test('Home describes the organisation, and has no breadcrumb list', async ({ page }) => {
    await page.goto('/');
    const documents = await jsonLd(page);
    expect(documents.map((doc) => doc['@type'])).toEqual(['Organization']);
    expect(documents[0]).toMatchObject({
      '@context': 'https://schema.org',
      name: site.name,
      url: `${buildSiteOrigin}/`,
      email: site.email,
      telephone: site.phone,
      foundingDate: String(site.foundedYear),
    });
  });

  for (const { link, title } of modules) {
    test(`${link} describes ${title} as a SoftwareApplication`, async ({ page }) => {
      await page.goto(link);
      const app = (await jsonLd(page)).find((doc) => doc['@type'] === 'SoftwareApplication');
      expect(app).toMatchObject({
        name: `${site.product} ${title}`,
        applicationCategory: 'HealthApplication',
      });
      expect(pathOf(app!.url as string)).toBe(link);
    });
  }

  for (const path of [...canonicalPaths.filter((p) => p !== '/'), '/products', '/products/abc']) {
    test(`${path}: the BreadcrumbList matches the visible trail in the served HTML`, async ({
      browser,
    }) => {
      // As a crawler reads the page: the HTML as served, without running the page's scripts.
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(path);
      const list = (await jsonLd(page)).filter((doc) => doc['@type'] === 'BreadcrumbList');
      expect(list).toHaveLength(1);
      const items = list[0]!.itemListElement as { position: number; name: string; item: string }[];
      const visible = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
      expect(items.map(({ name }) => name)).toEqual(await visible.allTextContents());
      const hrefs = await visible.evaluateAll((links) =>
        links.map((link) => link.getAttribute('href')),
      );
      expect(items.map(({ item }) => new URL(item).pathname)).toEqual(hrefs);
      expect(items.map(({ position }) => position)).toEqual(items.map((_, index) => index + 1));
      await context.close();
    });
  }
});

test('llms.txt summarises the product, the nine modules with their URLs, and the contact', async ({
  request,
}) => {
  const response = await request.get('/llms.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const text = await response.text();
  expect(text.startsWith(`# ${site.name}\n\n> ${site.description}\n`)).toBe(true);
  for (const { title, link, summary } of modules)
    expect(text).toContain(`- [${title}](${buildSiteOrigin}${link}): ${summary}`);
  expect(text).toContain(site.email);
  for (const [, url] of text.matchAll(/\]\(([^)]+)\)/g))
    expect((await request.get(new URL(url!).pathname)).status(), url).toBe(200);
});
