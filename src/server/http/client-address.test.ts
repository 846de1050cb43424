import { describe, expect, it } from 'vitest';
import { clientAddress, hashClientAddress } from './client-address';
import { PEER_ADDRESS_HEADER } from './peer-address';

const headers = (init: Record<string, string>) => new Headers(init);

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is set', () => {
    const h = headers({ 'x-forwarded-for': '6.6.6.6', [PEER_ADDRESS_HEADER]: '10.0.0.9' });
    expect(clientAddress(h, 0)).toBe('10.0.0.9');
    expect(clientAddress(headers({ 'x-forwarded-for': '6.6.6.6' }), 0)).toBe('unknown');
  });

  it('takes the address the trusted proxies saw, not what the client claims', () => {
    const h = headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.2' });
    expect(clientAddress(h, 1)).toBe('10.0.0.2');
    expect(clientAddress(h, 2)).toBe('203.0.113.7');
    expect(clientAddress(headers({ 'x-forwarded-for': '203.0.113.7' }), 3)).toBe('203.0.113.7');
  });

  it('hashes addresses with the secret, never returning the address', () => {
    const hash = hashClientAddress('203.0.113.7', 's'.repeat(32));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(hashClientAddress('203.0.113.7', 't'.repeat(32)));
  });
});
