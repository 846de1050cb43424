// The container recipe without building an image: what the Dockerfile copies is
// copied into an empty directory and started as the image starts it (its CMD, `node serve/start.mjs`), from
// another working directory, with the app directory read-only and only DATA_DIR writable.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPaths, onDemandPaths } from '@/content/routes';
import { cspProblems } from '@test/csp';
import { enquiryValues, loadForm, postEnquiry, submitForm } from '@test/contact-form';
import { loggedLines, startProductionServer, type ProductionServer } from '@test/next-server';
import { TEST_SECRET } from '@test/form-token';
import { dockerEntry, stageDockerApp } from '@test/standalone';

/** The unprivileged user the server runs as when the test runs as root (root ignores `chmod a-w`). */
const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

let root: string;
let server: ProductionServer;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'standalone-'));
  chmodSync(root, 0o755);
  const app = path.join(root, 'app');
  const data = path.join(root, 'data');
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(app);
  mkdirSync(data);
  mkdirSync(elsewhere);
  if (nobody) chownSync(data, nobody.uid, nobody.gid);
  const copies = stageDockerApp(app);
  console.log(
    'Dockerfile copies:',
    copies.map(({ source, destination }) => `${source} -> ${destination}`).join(', '),
  );
  chmodSync(elsewhere, 0o555);
  server = await startProductionServer({
    command: () => ({
      file: process.execPath,
      args: [path.join(app, dockerEntry())],
      cwd: elsewhere,
    }),
    user: nobody,
    env: {
      NODE_ENV: 'production',
      DATA_DIR: data,
      DATABASE_URL: undefined,
      SMTP_URL: undefined,
      TRUST_PROXY: '0',
      RATE_LIMIT_MAX: '2',
      FORM_SECRET: TEST_SECRET,
      SITE_URL: undefined,
    },
    readyPath: '/api/health',
  });
});

afterAll(async () => {
  await server?.stop('SIGTERM', 10_000);
  if (root) {
    execFileSync('chmod', ['-R', 'u+w', path.join(root, 'app')]);
    rmSync(root, { recursive: true, force: true });
  }
});

describe('the standalone bundle, as the Dockerfile installs it', () => {
  it('cannot write its own directory, so the test is real', () => {
    expect(nobody ?? process.getuid?.()).not.toBe(0);
  });

  it('serves every route with a CSP that allows its inline scripts', async () => {
    const paths = [...canonicalPaths, '/products', '/products/abc', '/no-such-page'];
    for (const pathname of paths) {
      const response = await fetch(server.url + pathname);
      const html = await response.text();
      expect(response.status, pathname).toBe(pathname === '/no-such-page' ? 404 : 200);
      expect(cspProblems(response.headers.get('content-security-policy'), html), pathname).toEqual(
        [],
      );
    }
    console.log(`${paths.length} routes checked`);
  });

  it('rewrites the pages rendered per request: no script file before load, the loader under the nonce', async () => {
    // The loader runs the visit beacon and the page script (`data-a`) at `load`, the framework's
    // files (`data-l`) on the first interaction (src/lib/page-loader.ts).
    for (const pathname of onDemandPaths) {
      const response = await fetch(server.url + pathname);
      const html = await response.text();
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '');
      expect(html, pathname).not.toMatch(/<script\b[^>]*\bsrc=/);
      expect(html, pathname).not.toMatch(/<link\b[^>]*\bas="script"/);
      // The nonce is base64: `+` and `/` are literal here, not regular-expression syntax.
      const quoted = (nonce?.[1] ?? '(no nonce)').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      expect(html, pathname).toMatch(
        new RegExp(
          `<script data-a="/_next/static/deferred/[^" ]+ /_next/static/deferred/[^" ]+" data-l="/_next/static/[^"]+"[^>]* nonce="${quoted}">`,
        ),
      );
    }
  });

  it('serves the share images (fonts read at run time are in the bundle)', async () => {
    const html = await (await fetch(`${server.url}/products/0`)).text();
    const image = new URL(
      /<meta property="og:image" content="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&'),
    );
    const response = await fetch(server.url + image.pathname + image.search);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('stores an enquiry, and the rate limit counts the TCP peer, not a forged X-Forwarded-For', async () => {
    const first = await postEnquiry(server.url, enquiryValues(1, 'standalone'), {
      'x-forwarded-for': '198.51.100.1',
    });
    expect(first.accepted, first.html.slice(0, 300)).toBe(true);
    // RATE_LIMIT_MAX is 2: a third enquiry from this client is refused, whatever address it claims.
    const forms = await Promise.all([2, 3].map(() => loadForm(server.url)));
    const results = [];
    for (const [index, form] of forms.entries())
      results.push(
        await submitForm(server.url, form, enquiryValues(index + 2, 'standalone'), {
          'x-forwarded-for': `198.51.100.${index + 2}`,
        }),
      );
    console.log(
      'enquiries from one peer with forged addresses:',
      [first, ...results].map((r) => r.accepted),
    );
    expect(results.map((result) => result.accepted)).toEqual([true, false]);
    expect(results[1]!.status).toBeLessThan(500);
    const warnings = await loggedLines(
      server,
      (line) => line.event === 'http.proxied_without_trust',
    );
    expect(warnings).toHaveLength(1);
  });
});
