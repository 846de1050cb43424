import { isIPv4, isIPv6 } from 'node:net';

/**
 * The one client a network address stands for in every per-client limit and cap:
 * - an IPv4 address is itself (`203.0.113.7`);
 * - an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, as a dual-stack socket reports IPv4 peers)
 *   is its IPv4 address, so one host counts once whichever way it arrives;
 * - any other IPv6 address is its /64 prefix, written `2001:db8:0:7::/64` (four lower-case hex
 *   groups without leading zeros), since a /64 is what one subscriber or host is handed: counting
 *   single IPv6 addresses would give such a host 2^64 clients;
 * - a zone (`fe80::1%eth0`) is dropped first; anything that is not an address (`unknown`) is
 *   returned unchanged.
 * Pure and idempotent: `clientKey(clientKey(a)) === clientKey(a)`.
 */
export function clientKey(address: string): string {
  const bare = address.trim().replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (bare.endsWith('::/64') && isIPv6(bare.slice(0, -3))) return ipv6Key(bare.slice(0, -3));
  if (!isIPv6(bare)) return address;
  return ipv6Key(bare);
}

function ipv6Key(address: string): string {
  const groups = ipv6Groups(address.toLowerCase());
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}
