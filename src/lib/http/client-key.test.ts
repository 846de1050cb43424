import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key';

describe('clientKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('reduces every address of one /64 to one key, whatever its spelling', () => {
    const keys = [
      '2001:db8:0:7::1',
      '2001:0DB8:0000:0007:ffff:ffff:ffff:ffff',
      '2001:db8::7:1:2:3:4',
      '2001:db8:0:7:a:b:c:d',
      'fe80::1%eth0',
    ].map(clientKey);
    expect(keys.slice(0, 4)).toEqual(Array(4).fill('2001:db8:0:7::/64'));
    expect(keys[4]).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('tells apart neighbouring /64s and IPv4 addresses', () => {
    expect(clientKey('2001:db8:0:7::1')).not.toBe(clientKey('2001:db8:0:8::1'));
    expect(clientKey('::ffff:203.0.113.7')).not.toBe(clientKey('::ffff:203.0.113.8'));
  });

  it('is idempotent and leaves what is not an address alone', () => {
    for (const address of ['2001:db8:0:7::1', '::ffff:10.0.0.1', '10.0.0.1'])
      expect(clientKey(clientKey(address))).toBe(clientKey(address));
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('ops@example.com')).toBe('ops@example.com');
  });
});
