import './e2e/server-only';
import { defineConfig, devices } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH } from './scripts/chromium.mjs';
import { TEST_SECRET } from './tests/support/form-token';
import { E2E_METRICS_TOKEN } from './tests/support/metrics-token';

/** Port of the production server the browser tests start (the standalone bundle, as `npm start` runs it). */
const port = Number(process.env.E2E_PORT ?? 3100);

/** Debian's Chromium with the launch flags that work on this machine (DEVELOPERS.md). */
const chromium = { executablePath: CHROME_PATH, args: CHROME_FLAGS };

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: 'off',
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    { name: 'mobile', use: { ...devices['Pixel 5'], viewport: { width: 375, height: 740 } } },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e',
      SITE_URL: `http://127.0.0.1:${port}`,
      // Each test posts the contact form from its own X-Forwarded-For address, so the per-client
      // rate limit never couples tests or reruns.
      TRUST_PROXY: '1',
      // Known to the specs, which sign backdated form tokens instead of waiting out their minimum age.
      FORM_SECRET: TEST_SECRET,
      // Shows the specs the health details (/api/health gives the public its status only).
      METRICS_TOKEN: E2E_METRICS_TOKEN,
    },
  },
});
