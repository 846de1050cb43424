import { isIPv4 } from 'node:net';
import { clientKey } from './client-key';

/**
 * The loose group a client belongs to, for the limits one person should not be able to dodge by
 * moving to a neighbouring address (the budget of mails to unproven addresses, live demo holds):
 * an IPv4 address's /24 (`203.0.113.0/24`), an IPv6 address's /48 (`2001:db8:7::/48`, what one
 * site or customer is usually handed; a /64 is one host, clientKey), an IPv4-mapped IPv6 address
 * as its IPv4 address. Anything that is not an address is returned unchanged. Never the same
 * string as a clientKey of an address, so the two never share a hash.
 */
export function clientGroup(address: string): string {
  const key = clientKey(address);
  if (isIPv4(key)) return `${key.split('.').slice(0, 3).join('.')}.0/24`;
  if (!key.endsWith('::/64')) return key;
  const groups = key.slice(0, -5).split(':').slice(0, 3);
  while (groups.length > 0 && groups.at(-1) === '0') groups.pop();
  return `${groups.join(':')}::/48`;
}
