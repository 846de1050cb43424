import { describe, expect, it } from 'vitest';
import { hashClientAddress } from '../http/client-address';
import { addressHash } from '../people/address-hash';
import { keyedHash } from './keyed-hash';

const secret = 's'.repeat(32);

describe('keyedHash', () => {
  // Fixed vectors (HMAC-SHA-256 computed apart): every stored suppression, tombstone and client
  // hash was made with these formulas, so they must never change.
  it('hashes an address exactly as before purposes existed: HMAC of the trimmed, lower-cased address', () => {
    const vector = 'a1880b097f43a9cae89241a996d818eb8f1ab4f57b1decf5b309e26cebdaf699';
    expect(keyedHash('address', 'asha@hospital.example', secret)).toBe(vector);
    expect(addressHash(' Asha@Hospital.EXAMPLE ', secret)).toBe(vector);
  });

  it('hashes a client address as HMAC of `client:` and the address', () => {
    const vector = 'ecac8a6854ef2fefdf5342079ac02d54e2e0603e676171e54b6f4af64a10d3cc';
    expect(keyedHash('client', '203.0.113.7', secret)).toBe(vector);
    expect(hashClientAddress('203.0.113.7', secret)).toBe(vector);
  });

  it('gives two purposes different hashes of the same value, and another secret another hash', () => {
    expect(keyedHash('client', 'x', secret)).not.toBe(keyedHash('address', 'x', secret));
    expect(keyedHash('address', 'x', secret)).not.toBe(keyedHash('address', 'x', 't'.repeat(32)));
  });
});
