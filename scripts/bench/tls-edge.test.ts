import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsEdge } from './tls-edge.mjs';

/** GET `path` from `origin` over HTTP/2 (the edge's certificate is self-signed). */
async function get(origin: string, path: string) {
  const session = http2.connect(origin, { rejectUnauthorized: false });
  try {
    return await new Promise<{ status: number; alpn: string | undefined; body: string }>(
      (resolve, reject) => {
        const request = session.request({ ':path': path });
        let status = 0;
        let body = '';
        request.on('response', (headers) => (status = Number(headers[':status'])));
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (body += chunk));
        request.on('end', () => resolve({ status, alpn: session.alpnProtocol, body }));
        request.on('error', reject);
      },
    );
  } finally {
    session.close();
  }
}

describe('the bench TLS edge', () => {
  // The upstream answers with what it was asked, as `next start` would see it.
  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url, proto: req.headers['x-forwarded-proto'] }));
  });
  let upstreamPort = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('serves HTTPS over HTTP/2 and forwards the request with X-Forwarded-Proto: https', async () => {
    const edge = await startTlsEdge({ port: 0, targetPort: upstreamPort });
    try {
      expect(edge.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const response = await get(edge.url, '/products/0?tab=1');
      expect(response.status).toBe(200);
      expect(response.alpn).toBe('h2');
      expect(JSON.parse(response.body)).toEqual({ url: '/products/0?tab=1', proto: 'https' });
    } finally {
      await edge.stop();
    }
  });

  it('answers 502 when the site behind it is down', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const edge = await startTlsEdge({ port: 0, targetPort: deadPort });
    try {
      expect((await get(edge.url, '/')).status).toBe(502);
    } finally {
      await edge.stop();
    }
  });
});
