// Every public page fits the first round trip (docs/performance.md, DESIGN.md §14): its HTML
// document, headers included, at most 14,600 bytes as sent over HTTP/1.1 to a client that accepts
// brotli, from `npm start` and through the reference edge (deploy/nginx.conf); and what is sent
// compressed is the page itself.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '@/lib/security/inline-scripts';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import {
  documentBytes,
  FIRST_ROUND_TRIP_BYTES,
  PUBLIC_ROUTES,
} from '../../scripts/bench/document-bytes.mjs';
import { startEdge } from '../../scripts/bench/nginx-edge.mjs';
import { onDemandPaths } from '@/content/routes';

/** Pages rendered per request (a form token and a nonce each time); the rest are prerendered. */
const PER_REQUEST: readonly string[] = onDemandPaths;

/** GET `url` with `Accept-Encoding`: status, headers and the body as it came, undecoded. */
function getRaw(url: string, acceptEncoding: string) {
  const client = url.startsWith('https:') ? https : http;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const request = client.get(
        url,
        { headers: { 'Accept-Encoding': acceptEncoding }, rejectUnauthorized: false, agent: false },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
    },
  );
}

function decoded({ headers, body }: { headers: http.IncomingHttpHeaders; body: Buffer }) {
  const encoding = headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

let server: ProductionServer;

beforeAll(async () => {
  server = await startProductionServer({ env: { LOG_LEVEL: 'warn', TRUST_PROXY: '1' } });
});

afterAll(async () => {
  await server?.stop();
});

describe('npm start', () => {
  for (const route of PUBLIC_ROUTES) {
    it(`${route}: the document fits the first round trip, in brotli`, async () => {
      const sent = await documentBytes(`${server.url}${route}`);
      expect(sent.status).toBe(200);
      expect(sent.encoding).toBe('br');
      expect(sent.bytes, `${route}: ${sent.bytes} bytes on the wire`).toBeLessThanOrEqual(
        FIRST_ROUND_TRIP_BYTES,
      );
    });
  }

  it('sends the same page in brotli, gzip and uncompressed, and says it varies', async () => {
    for (const route of PUBLIC_ROUTES.filter((route) => !PER_REQUEST.includes(route))) {
      const [br, gzip, identity] = await Promise.all(
        ['br, gzip', 'gzip', 'identity'].map((encoding) =>
          getRaw(`${server.url}${route}`, encoding),
        ),
      );
      expect(br!.headers['content-encoding'], route).toBe('br');
      expect(gzip!.headers['content-encoding'], route).toBe('gzip');
      expect(br!.headers.vary, route).toMatch(/accept-encoding/i);
      expect(Number(br!.headers['content-length']), route).toBe(br!.body.length);
      expect(decoded(br!), route).toBe(identity!.body.toString('utf8'));
      expect(decoded(gzip!), route).toBe(identity!.body.toString('utf8'));
    }
    // A page rendered per request streams through brotli whole.
    const page = decoded(await getRaw(`${server.url}/contact-us`, 'br'));
    expect(page).toContain('<h1');
    expect(page.trimEnd()).toMatch(/<\/html>$/);
  });

  it('a prerendered page has one inline script, the loader, and requests no script by itself', async () => {
    for (const route of PUBLIC_ROUTES.filter((route) => !PER_REQUEST.includes(route))) {
      const html = decoded(await getRaw(`${server.url}${route}`, 'br'));
      expect(inlineScriptHashes(html), route).toHaveLength(1);
      expect(html, route).not.toMatch(/<script\b[^>]*\bsrc=/);
      expect(html, route).not.toMatch(/<link\b[^>]*\bas="script"/);
      const scripts = /\bdata-l="([^"]+)"/.exec(html)?.[1]?.split(' ') ?? [];
      expect(scripts.length, route).toBeGreaterThan(1);
      // The payload file and the chunks it lists are served, compressed.
      for (const script of scripts.slice(0, 2)) {
        const response = await getRaw(`${server.url}${script}`, 'br, gzip');
        expect(response.status, script).toBe(200);
        expect(response.headers['content-encoding'], script).toBe('br');
        expect(decoded(response).length, script).toBeGreaterThan(0);
      }
    }
  });
});

const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return existsSync('/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so');
  } catch {
    return false;
  }
})();

describe.skipIf(!hasNginx)('through the reference edge', () => {
  let edge: Awaited<ReturnType<typeof startEdge>>;
  beforeAll(async () => {
    edge = await startEdge([`127.0.0.1:${server.port}`]);
  });
  afterAll(async () => {
    await edge?.stop();
  });

  for (const route of PUBLIC_ROUTES) {
    it(`${route}: the document fits the first round trip, cached per encoding`, async () => {
      for (let hit = 0; hit < 2; hit += 1) {
        const sent = await documentBytes(`${edge.url}${route}`);
        expect(sent.status).toBe(200);
        expect(sent.encoding).toBe('br');
        expect(sent.bytes, `${route}: ${sent.bytes} bytes on the wire`).toBeLessThanOrEqual(
          FIRST_ROUND_TRIP_BYTES,
        );
      }
      const gzip = await getRaw(`${edge.url}${route}`, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(decoded(gzip)).toContain('</html>');
      const identity = await getRaw(`${edge.url}${route}`, 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      if (!PER_REQUEST.includes(route)) {
        expect(decoded(gzip)).toBe(identity.body.toString('utf8'));
        const br = await getRaw(`${edge.url}${route}`, 'gzip, deflate, br');
        expect(br.headers['x-cache-status']).toBe('HIT');
        expect(decoded(br)).toBe(identity.body.toString('utf8'));
      }
    });
  }
});
