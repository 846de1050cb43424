import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHeaderDirectives, startNoJsCopy } from './nginx-edge.mjs';

/** The site's defences as it sends them (src/lib/security/headers.ts), quotes included. */
const SITE_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self' 'sha256-abc='",
  'cross-origin-opener-policy': 'same-origin',
  'reporting-endpoints': 'csp="/api/csp-report"',
  'x-frame-options': 'DENY',
};
const PAGE =
  '<!DOCTYPE html><html><head><script type="application/ld+json">{"a":1}</script></head>' +
  '<body><h1>Hello</h1><script>alert(1)</script><script src="/_next/static/x.js"></script></body></html>';

/** GET over HTTPS, trusting the copy's throwaway certificate. */
function get(url: string): Promise<{ headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

describe('the no-JS copy (real nginx)', () => {
  let site: http.Server;
  let copy: { url: string; stop(): Promise<void> };
  let staticDir: string;

  beforeAll(async () => {
    site = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', ...SITE_HEADERS });
      response.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const { port } = site.address() as { port: number };
    staticDir = mkdtempSync(path.join(os.tmpdir(), 'no-js-static-'));
    copy = await startNoJsCopy(`http://127.0.0.1:${port}`, ['/', '/about-us'], staticDir);
  });
  afterAll(async () => {
    await copy?.stop();
    site?.close();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it('serves each page without its scripts, with the JSON-LD kept', async () => {
    for (const route of ['/', '/about-us']) {
      const { body } = await get(copy.url + route);
      expect(body).toContain('<h1>Hello</h1>');
      expect(body).toContain('application/ld+json');
      expect(body).not.toContain('alert(1)');
      expect(body).not.toContain('x.js');
    }
  });

  it("sends each page with the site's defences, as the site sent them", async () => {
    const { headers } = await get(`${copy.url}/about-us`);
    for (const [name, value] of Object.entries(SITE_HEADERS)) expect(headers[name]).toBe(value);
  });
});

describe('pageHeaderDirectives', () => {
  it("copies every header but the body's, quoted for nginx", () => {
    const headers = new Headers({ ...SITE_HEADERS, etag: '"x"', 'content-length': '9' });
    const directives = pageHeaderDirectives(headers);
    expect(directives).toContain(
      'add_header reporting-endpoints "csp=\\"/api/csp-report\\"" always;',
    );
    expect(directives).toContain('add_header cross-origin-opener-policy "same-origin" always;');
    expect(directives).not.toMatch(/etag|content-length/);
  });

  it('refuses a value nginx would read as a variable', () => {
    expect(() => pageHeaderDirectives(new Headers({ 'x-frame-options': 'DENY $host' }))).toThrow(
      /x-frame-options/,
    );
  });
});
