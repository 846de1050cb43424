import 'server-only';
import { keyedHash } from '../security/keyed-hash';
import { clientGroup } from '../../../lib/http/client-group';

/**
 * Keyed hash of the loose group of a client address (clientGroup: an IPv4 /24, an IPv6 /48),
 * purpose `client` like hashClientAddress: a group is never spelled like one client, so the two
 * never share a hash. What the budget of mails to unproven addresses counts a requester by.
 */
export function hashClientGroup(address: string, secret: string): string {
  return keyedHash('client', clientGroup(address), secret);
}
