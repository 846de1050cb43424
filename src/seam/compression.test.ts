import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// Next.js's own gzip middleware, which runs inside the wrapper in `npm start`.
// @ts-expect-error: Next.js's compiled copy ships without types
import compression from 'next/dist/compiled/compression';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptsBrotli, withCompression } from './compression';
import { createPageRewrite } from './page-rewrite';
import { createStaticCache } from './static-cache';

const html = `<!DOCTYPE html><html><body>${'<p>Nirmaya HIMS</p>'.repeat(400)}</body></html>`;
const png = Buffer.alloc(80_000, 7);
/** A body whose precompressed copy is a marker, to see that the copy is what is sent. */
const prebuilt = `<!DOCTYPE html><html><body>${'<p>prerendered</p>'.repeat(400)}</body></html>`;
const marker = brotliCompressSync('<p>from the build</p>');

/** A page rendered per request under a nonce, as Next.js streams it (a multi-byte text included). */
const nonce = 'cGVyLXJlcXVlc3Q=';
const perRequest = Buffer.from(
  `<!DOCTYPE html><html><head><link rel="preload" as="script" href="/_next/static/chunks/m.js" nonce="${nonce}"/>` +
    `<script src="/_next/static/chunks/m.js" async="" nonce="${nonce}"></script><title>Nirmaya — स्वास्थ्य</title></head>` +
    `<body>${'<p>Nirmaya HIMS — अस्पताल</p>'.repeat(200)}` +
    `<script nonce="${nonce}">self.__next_f.push([1,"x"])</script></body></html>`,
);
const beacon = '/_next/static/deferred/beacon.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
const routes: Record<string, Handler> = {
  '/whole': (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(html));
    res.end(html);
  },
  '/prebuilt': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(prebuilt);
  },
  '/streamed': async (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.flushHeaders();
    for (let i = 0; i < html.length; i += 1000) {
      res.write(html.slice(i, i + 1000));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    res.end();
  },
  // As Next.js streams a file route (an Open Graph image): flushHeaders, a write over the
  // high-water mark, then `end` only after `drain`.
  '/image': async (_req, res) => {
    res.setHeader('Content-Type', 'image/png');
    res.writeHead(200);
    res.flushHeaders();
    if (!res.write(png)) await new Promise((resolve) => res.once('drain', resolve));
    res.end();
  },
  // Written in pieces of 7 bytes: tags and characters cut anywhere.
  '/per-request': async (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', `script-src 'self' 'nonce-${nonce}'`);
    res.flushHeaders();
    for (let i = 0; i < perRequest.length; i += 7) {
      res.write(perRequest.subarray(i, i + 7));
      if (i % 700 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    res.end();
  },
  '/not-modified': (_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.statusCode = 304;
    res.end();
  },
};

let server: http.Server;
let origin: string;

beforeAll(async () => {
  const gzip = compression();
  const precompressed = new Map([[createHash('sha256').update(prebuilt).digest('hex'), marker]]);
  server = http.createServer(
    withCompression((req, res) => gzip(req, res, () => routes[req.url ?? '']?.(req, res)), {
      precompressed,
      cache: createStaticCache(new Set()),
      rewritePages: true,
      atLoad: [beacon],
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(path: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(`${origin}${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    },
  );
}

describe('withCompression', () => {
  it('compresses a whole HTML body with brotli, with its length and Vary', async () => {
    const response = await get('/whole', 'gzip, deflate, br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(brotliDecompressSync(response.body).toString()).toBe(html);
  });

  it('sends the copy precompressed at build when the body matches it', async () => {
    const response = await get('/prebuilt', 'br');
    expect(response.body.equals(marker)).toBe(true);
  });

  it('compresses a streamed body as it streams', async () => {
    const response = await get('/streamed', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.body).toString()).toBe(html);
  });

  it('passes a body it does not compress through whole (no stall on drain)', async () => {
    const response = await get('/image', 'br');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.equals(png)).toBe(true);
  });

  it('leaves clients without brotli to Next.js (gzip) and a 304 without a body', async () => {
    const gzip = await get('/whole', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(html);
    const notModified = await get('/not-modified', 'br');
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
  });

  it('rewrites a page rendered per request as it streams, whatever the encoding', async () => {
    const deferred = createPageRewrite({ nonce, atLoad: [beacon] });
    const expected = deferred.push(perRequest.toString()) + deferred.end();
    expect(expected).toContain(
      `<script data-a="${beacon}" data-l="/_next/static/chunks/m.js" nonce="${nonce}">`,
    );
    const [br, gzip, identity] = await Promise.all(
      ['br', 'gzip', 'identity'].map((encoding) => get('/per-request', encoding)),
    );
    expect(br!.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br!.body).toString()).toBe(expected);
    expect(gzip!.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip!.body).toString()).toBe(expected);
    expect(identity!.headers['content-encoding']).toBeUndefined();
    expect(identity!.body.toString()).toBe(expected);
    console.log(
      `per-request page: ${perRequest.length} bytes -> ${expected.length} rewritten, ${br!.body.length} br`,
    );
  });

  it('reads Accept-Encoding', () => {
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsBrotli('br;q=0.5')).toBe(true);
    expect(acceptsBrotli('br;q=0, gzip')).toBe(false);
    expect(acceptsBrotli('gzip')).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});
