import { chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH } from './chromium.mjs';
const [url, cookie] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
const context = await browser.newContext();
if (cookie) { const [n, v] = cookie.split('='); await context.addCookies([{ name: n, value: v, url }]); }
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Network.enable');
const t0 = Date.now();
cdp.on('Network.requestWillBeSent', (e) => {
  if (!/\.js/.test(e.request.url)) return;
  const stack = e.initiator.stack?.callFrames?.slice(0, 3).map((f) => `${f.functionName}@${f.url.split('/').pop()}:${f.lineNumber}`).join(' < ');
  console.log(Date.now() - t0, e.initiator.type, e.request.url.split('/').pop(), stack ?? e.initiator.url?.split('/').pop() ?? '');
});
await page.goto(url);
await page.waitForLoadState('networkidle');
await page.waitForTimeout(3000);
await browser.close();
