import '@test/quiet-logs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../log';
import { installPeerAddressHeader, PEER_ADDRESS_HEADER } from './peer-address';

let server: http.Server;
let url: string;
const warn = vi.spyOn(log, 'warn');

beforeAll(async () => {
  installPeerAddressHeader(0);
  // A real HTTP server in this process, as Next.js's: it echoes the headers its handler sees.
  server = http.createServer((request, response) => response.end(JSON.stringify(request.headers)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  warn.mockRestore();
});

const seen = async (headers: Record<string, string> = {}) =>
  (await (await fetch(url, { headers })).json()) as Record<string, string>;

describe('installPeerAddressHeader', () => {
  it('stamps the TCP peer on every request, over whatever the client sent', async () => {
    expect((await seen())[PEER_ADDRESS_HEADER]).toBe('127.0.0.1');
    expect((await seen({ [PEER_ADDRESS_HEADER]: '6.6.6.6' }))[PEER_ADDRESS_HEADER]).toBe(
      '127.0.0.1',
    );
  });

  it('warns once when proxied requests arrive while TRUST_PROXY is 0', async () => {
    await seen({ 'x-forwarded-for': '203.0.113.1' });
    await seen({ 'x-forwarded-for': '203.0.113.2' });
    const warnings = warn.mock.calls.filter(
      ([facts]) => (facts as { event?: string }).event === 'http.proxied_without_trust',
    );
    expect(warnings).toHaveLength(1);
  });

  it('is idempotent', async () => {
    installPeerAddressHeader(0);
    expect((await seen())[PEER_ADDRESS_HEADER]).toBe('127.0.0.1');
  });
});
