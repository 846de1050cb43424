import { expect, test, type APIResponse } from './fixtures';
import { scriptHash } from '../src/lib/security/inline-scripts';
import { pages } from './routes';
import { onDemandPaths } from '../src/content/routes';

/**
 * Security and caching headers on every kind of response, checked over HTTP (no browser): pages,
 * 404s, the health route, generated files and hashed build assets.
 */

const notFound = ['/no/such/page', '/products/9'];
const otherResponses = ['/api/health', '/robots.txt', '/sitemap.xml'];

/** Directive name -> sources of a Content-Security-Policy header. */
function parsePolicy(header: string | undefined): Map<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function expectStrictPolicy(response: APIResponse): Map<string, string[]> {
  const policy = parsePolicy(response.headers()['content-security-policy']);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  const scripts = policy.get('script-src') ?? [];
  expect(scripts[0]).toBe("'self'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(
    scripts.filter(
      (source) => !/^'(self|nonce-[A-Za-z0-9+/=]+|sha256-[A-Za-z0-9+/=]+)'$/.test(source),
    ),
  ).toEqual([]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('report-to')).toEqual(['csp']);
  return policy;
}

function expectCommonHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  const permissions = headers['permissions-policy'] ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    expect(permissions).toContain(`${feature}=()`);
  }
  expect(headers['x-powered-by']).toBeUndefined();
  expect(headers['reporting-endpoints']).toBe('csp="/api/csp-report"');
  // Served over plain http here: no HSTS (browsers ignore it on http, and it must not be guessed).
  expect(headers['strict-transport-security']).toBeUndefined();
}

/** Every inline script a browser would run is allowed by its hash or by the policy's nonce. */
function expectInlineScriptsAllowed(html: string, policy: Map<string, string[]>) {
  const sources = new Set(policy.get('script-src'));
  const nonce = [...sources].find((source) => source.startsWith("'nonce-"))?.slice(7, -1);
  let inline = 0;
  for (const [, attributes = '', body = ''] of html.matchAll(
    /<script\b([^>]*)>([\s\S]*?)<\/script>/g,
  )) {
    if (/\bsrc=/.test(attributes) || /type="application\/(ld\+)?json"/.test(attributes)) continue;
    inline += 1;
    const byNonce = nonce !== undefined && attributes.includes(`nonce="${nonce}"`);
    expect(byNonce || sources.has(scriptHash(body)), `inline script ${body.slice(0, 60)}…`).toBe(
      true,
    );
  }
  expect(inline, 'Next.js inline scripts on the page').toBeGreaterThan(0);
}

test.describe('pages', () => {
  for (const path of [...pages.map((page) => page.path), '/products/abc', '/products/03']) {
    test(`${path}: security headers, a policy that allows exactly its scripts, caching`, async ({
      request,
    }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expectCommonHeaders(response);
      const policy = expectStrictPolicy(response);
      expectInlineScriptsAllowed(await response.text(), policy);
      const headers = response.headers();
      expect(headers['content-encoding'], 'compressed').toMatch(/gzip|br/);
      if ((onDemandPaths as string[]).includes(path)) {
        // Rendered per request (form token): a fresh nonce, never cached.
        expect(policy.get('script-src')?.some((source) => source.startsWith("'nonce-"))).toBe(true);
        expect(headers['cache-control']).toContain('no-store');
      } else {
        // Prerendered: hashes only (static HTML cannot carry a per-request nonce), revalidated on use.
        expect(policy.get('script-src')?.some((source) => source.startsWith("'nonce-"))).toBe(
          false,
        );
        expect(headers['cache-control']).toBe('public, max-age=0, must-revalidate');
        expect(headers.etag).toBeTruthy();
        const revalidated = await request.get(path, {
          headers: { 'If-None-Match': headers.etag! },
        });
        expect(revalidated.status()).toBe(304);
      }
    });
  }

  test('the nonce of a page rendered on demand is new on every request', async ({ request }) => {
    const nonceOf = async () =>
      /'nonce-([^']+)'/.exec(
        (await request.get('/contact-us')).headers()['content-security-policy'] ?? '',
      )?.[1];
    const [first, second] = [await nonceOf(), await nonceOf()];
    expect(first).toBeTruthy();
    expect(second).not.toBe(first);
  });

  for (const path of notFound) {
    test(`${path}: 404 with security headers and a policy that allows its scripts`, async ({
      request,
    }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(404);
      expectCommonHeaders(response);
      expectInlineScriptsAllowed(await response.text(), expectStrictPolicy(response));
    });
  }
});

test.describe('other responses', () => {
  for (const path of otherResponses) {
    test(`${path}: security headers`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expectCommonHeaders(response);
      expectStrictPolicy(response);
    });
  }

  test('hashed build assets: immutable for a year, nosniff, same-origin, compressed', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text();
    // Scripts are listed in the loader's `data-l` (scripts/build/defer-scripts.ts), the rest in
    // `src` and `href`.
    const deferred = /\bdata-l="([^"]+)"/.exec(html)?.[1]?.split(' ') ?? [];
    const assets = [
      ...deferred,
      ...[...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css|woff2|svg))"/g)].map(
        (m) => m[1]!,
      ),
    ];
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    expect(
      assets.some((asset) => asset.endsWith('.svg')),
      'the illustrations are hashed',
    ).toBe(true);
    expect(
      assets.some((asset) => asset.endsWith('.woff2')),
      'the font is preloaded',
    ).toBe(true);
    for (const asset of new Set(assets)) {
      const response = await request.get(asset);
      expect(response.status(), asset).toBe(200);
      const headers = response.headers();
      expect(headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(headers['x-content-type-options'], asset).toBe('nosniff');
      expect(headers['cross-origin-resource-policy'], asset).toBe('same-origin');
      if (!asset.endsWith('.woff2')) expect(headers['content-encoding'], asset).toMatch(/gzip|br/);
    }
  });

  test('HSTS only for HTTPS: two years when a trusted proxy reports https, never for http', async ({
    request,
  }) => {
    const viaHttps = await request.get('/', { headers: { 'X-Forwarded-Proto': 'https' } });
    // Present only when the server runs with TRUST_PROXY; a client alone cannot switch it on.
    expect([undefined, 'max-age=63072000; includeSubDomains']).toContain(
      viaHttps.headers()['strict-transport-security'],
    );
    const viaHttp = await request.get('/', { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(viaHttp.headers()['strict-transport-security']).toBeUndefined();
  });
});
