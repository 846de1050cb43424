// The script a page loads and the client components it hydrates, from a real Chromium session
// (not Lighthouse): a quick before/after check of a change to what runs in the browser.
// Usage: node scripts/bench/first-load.mjs <baseURL> <path...> [--chunks] [--width <px>]
// The server must be running (`npm start`). For each path, in a fresh browser context: every script
// response's bytes on the wire (Chromium's encodedDataLength: compressed, headers included) until
// the network has been idle for 1 s after hydration (so a prefetch's chunks count, as they do in
// Lighthouse's network log), the same without the page's payload file (`/_next/static/deferred/`),
// the client modules the page's React Server Components payload references (the `I` rows), and
// the component fibers React hydrated (counted through a stub of the DevTools hook). The viewport is
// 1280 x 800 px unless `--width` gives another width (e.g. 375 for the mobile layout).
import { chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH } from '../chromium.mjs';

const args = process.argv.slice(2);
const showChunks = args.includes('--chunks');
const widthAt = args.indexOf('--width');
const width = widthAt >= 0 ? Number(args[widthAt + 1]) : 1280;
const [baseURL, ...paths] = args.filter(
  (arg, index) => arg !== '--chunks' && index !== widthAt && index !== widthAt + 1,
);
if (!baseURL || paths.length === 0 || !(width > 0)) {
  console.error(
    'usage: node scripts/bench/first-load.mjs <baseURL> <path...> [--chunks] [--width <px>]',
  );
  process.exit(2);
}

/** Runs in the page before its scripts: React reports each committed root to this stub. */
function installHook() {
  const roots = new Set();
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    onCommitFiberRoot: (_id, root) => roots.add(root),
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    checkDCE: () => {},
  };
  window.__fiberRoots = roots;
}

/** Counts the component fibers (function, class, forwardRef, memo) of every committed root. */
function countComponents() {
  const componentTags = new Set([0, 1, 11, 14, 15]);
  let components = 0;
  let hostElements = 0;
  for (const root of window.__fiberRoots ?? []) {
    const stack = [root.current];
    while (stack.length) {
      const fiber = stack.pop();
      if (!fiber) continue;
      if (componentTags.has(fiber.tag)) components += 1;
      if (fiber.tag === 5) hostElements += 1;
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
  }
  return { components, hostElements };
}

/**
 * The client components a page's payload file names (rows `<id>:I[<module>,[<chunks>],"<export>"]`)
 * with the number of elements of each (`"$L<id>"`), e.g. `NavLink×3`; `(default)` is an anonymous
 * or default export such as `next/link`'s.
 */
function clientReferences(script) {
  const text = script.replaceAll('\\"', '"');
  const rows = [...text.matchAll(/(?:^|\\n|\n)([0-9a-f]+):I\[(\d+),\[[^\]]*\],"([^"]*)"/g)];
  const byModule = new Map();
  for (const [, row, module, name] of rows) {
    const uses = text.split(`"$L${row}"`).length - 1;
    const key = `${module}:${name || '(default)'}`;
    byModule.set(key, (byModule.get(key) ?? 0) + uses);
  }
  const total = [...byModule.values()].reduce((sum, uses) => sum + uses, 0);
  const list = [...byModule].map(([key, uses]) => `${key.split(':')[1]}×${uses}`).join(' ');
  return `${byModule.size} modules, ${total} elements: ${list}`;
}

const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
for (const path of paths) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(installHook);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type === 'Script') scripts.set(requestId, { url: response.url, bytes: 0 });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const entry = scripts.get(requestId);
    if (entry) entry.bytes = encodedDataLength;
  });
  const payloads = [];
  cdp.on('Network.loadingFinished', ({ requestId }) => {
    const entry = scripts.get(requestId);
    if (entry?.url.includes('/_next/static/deferred/'))
      payloads.push(cdp.send('Network.getResponseBody', { requestId }).then(({ body }) => body));
  });
  await page.goto(baseURL + path, { waitUntil: 'load' });
  await page.waitForFunction(() =>
    Object.keys(document.body).some((key) => key.startsWith('__react')),
  );
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  const counts = await page.evaluate(countComponents);
  const islands = clientReferences((await Promise.all(payloads)).join(''));
  const all = [...scripts.values()];
  const code = all.filter(({ url }) => !url.includes('/_next/static/deferred/'));
  const kib = (list) => (list.reduce((sum, { bytes }) => sum + bytes, 0) / 1024).toFixed(1);
  console.log(
    `${path}: scripts ${all.length} files ${kib(all)} KiB, code ${kib(code)} KiB; ` +
      `${counts.components} component fibers, ${counts.hostElements} elements hydrated; ` +
      `client components in the payload: ${islands}`,
  );
  if (showChunks)
    for (const { url, bytes } of all)
      console.log(`  ${(bytes / 1024).toFixed(1).padStart(6)} KiB  ${new URL(url).pathname}`);
  await context.close();
}
await browser.close();
