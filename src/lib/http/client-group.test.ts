import { describe, expect, it } from 'vitest';
import { clientGroup } from './client-group';

describe('clientGroup', () => {
  it('groups IPv4 by /24 and IPv6 by /48, mapped IPv4 as IPv4', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.0/24');
    expect(clientGroup('203.0.113.250')).toBe('203.0.113.0/24');
    expect(clientGroup('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(clientGroup('2001:db8:7:1::5')).toBe('2001:db8:7::/48');
    expect(clientGroup('2001:0DB8:0007:ffff:1:2:3:4')).toBe('2001:db8:7::/48');
    expect(clientGroup('2001:db8::1')).toBe('2001:db8::/48');
    expect(clientGroup('2001:db8:8::1')).not.toBe(clientGroup('2001:db8:7::1'));
    expect(clientGroup('unknown')).toBe('unknown');
  });
});
