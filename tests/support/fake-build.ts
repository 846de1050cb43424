import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A folder laid out as `next build` lays out its output, with only what the site manifest is made
 * from (scripts/build/site-manifest.ts): the build id, prerendered pages and their `.meta`, a file
 * route, the 404 and refusal pages, the server-action and app-paths manifests and the resolved
 * config. Small enough to read in a test; the real layout is checked by
 * tests/production/framework-contract.test.ts.
 * @returns the folder (the caller removes it)
 */
export function fakeBuild(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'fake-build-'));
  const app = path.join(dist, 'server', 'app');
  mkdirSync(path.join(app, 'products'), { recursive: true });
  mkdirSync(path.join(app, 'request-error'), { recursive: true });
  writeFileSync(path.join(dist, 'BUILD_ID'), 'b1\n');
  writeFileSync(path.join(app, 'index.html'), '<script>home()</script>');
  writeFileSync(path.join(app, 'index.meta'), '{}');
  writeFileSync(
    path.join(app, 'products', '4.html'),
    '<script src="/x.js"></script><script>four()</script>',
  );
  writeFileSync(path.join(app, 'products', '4.meta'), '{}');
  writeFileSync(path.join(app, 'products', 'opengraph-image.body'), 'PNG');
  writeFileSync(path.join(app, 'products', 'opengraph-image.meta'), '{}');
  writeFileSync(path.join(app, '_not-found.html'), '<p>Not found</p><script>missing()</script>');
  for (const status of [400, 403, 405, 413, 414])
    writeFileSync(
      path.join(app, 'request-error', `${status}.html`),
      `<p>Refused ${status}</p><script src="/x.js"></script>`,
    );
  writeFileSync(
    path.join(dist, 'server', 'server-reference-manifest.json'),
    JSON.stringify({ node: { a1: {}, a2: {} }, edge: {} }),
  );
  writeFileSync(
    path.join(dist, 'server', 'app-paths-manifest.json'),
    JSON.stringify({
      '/page': 'app/page.js',
      '/api/health/route': 'app/api/health/route.js',
      '/(group)/api/items/[id]/route': 'app/x.js',
    }),
  );
  writeFileSync(
    path.join(dist, 'required-server-files.json'),
    JSON.stringify({ version: 1, config: { distDir: '.next', poweredByHeader: false } }),
  );
  return dist;
}
