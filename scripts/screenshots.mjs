// Takes full-page screenshots of every route at 375, 768 and 1280 px with Debian's Chromium, for a
// visual check by a person. Usage: node scripts/screenshots.mjs [baseURL] [outDir] [route...]
// (defaults: http://127.0.0.1:3000, ./screenshots, every route). The server must be running.
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH } from './chromium.mjs';

const [baseURL = 'http://127.0.0.1:3000', outDir = 'screenshots', ...only] = process.argv.slice(2);
const routes = only.length
  ? only
  : [
      '/',
      '/products/0',
      '/products/5',
      '/about-us',
      '/contact-us',
      '/terms-conditions',
      '/privacy-policy',
      '/accessibility',
      '/resources',
    ];
const widths = [375, 768, 1280];

await mkdir(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: CHROME_FLAGS,
});
for (const width of widths) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  for (const route of routes) {
    await page.goto(baseURL + route, { waitUntil: 'load' });
    // The page script runs after `load` (src/lib/page-loader.ts): scrolling before it has
    // looked at the page would leave the reveals below the fold pending, and blank in the picture.
    await page
      .waitForFunction(() => !document.querySelector('[data-reveal=""]'), { timeout: 10_000 })
      .catch(() => {});
    // Scroll through the page, as a visitor would, so lazy images load and reveals play.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForTimeout(1100);
    const name = `${route === '/' ? 'home' : route.slice(1).replaceAll('/', '-')}-${width}.png`;
    await page.screenshot({ path: `${outDir}/${name}`, fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    console.log(`${name}${overflow > 0 ? `  horizontal overflow ${overflow}px` : ''}`);
  }
  await page.close();
}
await browser.close();
