import '@test/quiet-logs';
import { describe, expect, it, vi } from 'vitest';
import { getEnv } from '../env';
import { clientAddress, hashClientAddress } from './client-address';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';

const headers = (init: Record<string, string>) => new Headers(init);
const env = (TRUST_PROXY: string) => ({ TRUST_PROXY }) as unknown as NodeJS.ProcessEnv;
const trust = (value: string) => getEnv(env(value)).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('reads a hop count, true/false, or a list of addresses and CIDR ranges', () => {
    expect(trust('')).toBe(0);
    expect(trust('false')).toBe(0);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('loopback, 10.0.0.0/8,2001:db8::/32')).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
  });

  it('refuses anything else', () => {
    for (const value of ['-1', '11', '10.0.0.0/99', 'proxy.example', ','])
      expect(() => getEnv(env(value)), value).toThrow(/TRUST_PROXY/);
  });
});

describe('clientAddress', () => {
  it('uses the TCP peer and ignores X-Forwarded-For unless TRUST_PROXY is set', () => {
    const h = headers({ 'x-forwarded-for': '6.6.6.6', [PEER_ADDRESS_HEADER]: '10.0.0.9' });
    expect(clientAddress(h, 0)).toBe('10.0.0.9');
    expect(clientAddress(headers({ 'x-forwarded-for': '6.6.6.6' }), 1)).toBe('unknown');
  });

  it('takes the right-most untrusted hop for a hop count, not what the client claims', () => {
    const h = headers({
      'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.2',
      [PEER_ADDRESS_HEADER]: '127.0.0.1',
    });
    expect(clientAddress(h, 1)).toBe('10.0.0.2');
    expect(clientAddress(h, 2)).toBe('203.0.113.7');
    expect(clientAddress(h, 9)).toBe('6.6.6.6');
  });

  it('takes the right-most hop outside the trusted ranges for a CIDR list', () => {
    const h = headers({
      'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.1.2.3',
      [PEER_ADDRESS_HEADER]: '::ffff:127.0.0.1',
    });
    expect(clientAddress(h, ['loopback', '10.0.0.0/8'])).toBe('203.0.113.7');
    // A peer outside the list is the client, whatever it forwards.
    expect(clientAddress(h, ['192.0.2.0/24'])).toBe('::ffff:127.0.0.1');
  });

  it('hashes addresses with the secret, never returning the address', () => {
    const hash = hashClientAddress('203.0.113.7', 's'.repeat(32));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(hashClientAddress('203.0.113.7', 't'.repeat(32)));
  });
});

describe('clientAddress behind an untrusted proxy', () => {
  it('warns once per process when proxied requests arrive while TRUST_PROXY is 0', async () => {
    // A fresh copy of the module, as a new process has: the tests above sent X-Forwarded-For too.
    vi.resetModules();
    const fresh = await import('./client-address');
    const { log: freshLog } = await import('../log');
    const warn = vi.spyOn(freshLog, 'warn');
    try {
      for (const address of ['203.0.113.1', '203.0.113.2'])
        expect(
          fresh.clientAddress(
            headers({ 'x-forwarded-for': address, [PEER_ADDRESS_HEADER]: '10.0.0.9' }),
            0,
          ),
        ).toBe('10.0.0.9');
      const warnings = warn.mock.calls.filter(
        ([facts]) => (facts as { event?: string }).event === 'http.proxied_without_trust',
      );
      expect(warnings).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});
