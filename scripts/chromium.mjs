// Debian's Chromium and the launch flags that work on this machine (DEVELOPERS.md): shared by the
// browser tests (playwright.config.ts), the benchmark (scripts/bench) and scripts/screenshots.mjs.

/** Path of the Chromium binary (`CHROME_PATH`, default Debian's `/usr/bin/chromium`). */
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Headless, sandbox-free, and no background network traffic (this machine has no internet). */
export const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
