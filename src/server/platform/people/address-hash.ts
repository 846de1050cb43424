import 'server-only';
import { keyedHash } from '../security/keyed-hash';
import { canonicalAddress } from './canonical-address';

/**
 * The keyed hash of an e-mail address (keyedHash, purpose `address`): HMAC-SHA-256, keyed with the
 * site secret, of the address trimmed and lower-cased, in hex. What `privacy_requests.email_hash` (the tombstone) and
 * `suppressions` keep instead of the address: it recognises the address again without holding it
 * (DPDP Act s.8(7): data erased, only what proves the request was honoured is kept). The one
 * function for it: the request pages, the erasure, the suppression checks and the console use it.
 * @param email the address as typed (any case, surrounding spaces ignored)
 * @param secret the site secret (getSiteSecret)
 * @returns 64 hex characters
 */
export function addressHash(email: string, secret: string): string {
  return keyedHash('address', email.trim().toLowerCase(), secret);
}

/**
 * The two keyed hashes an address is known by: `exact`, of its spelling (addressHash: what a copy,
 * an erasure's tombstone and "hear from us again" go by), and `mailbox`, of its canonical form
 * (canonicalAddress: what blocks, shared by every spelling one inbox receives). The same formula
 * (purpose `address`), so for an already-canonical address the two are equal, and a suppression
 * stored before canonical forms existed holds for every spelling of a canonical address.
 */
export type AddressKeys = { exact: string; mailbox: string };

/** The AddressKeys of `email` (as typed), keyed with the site secret `secret`. */
export function addressKeys(email: string, secret: string): AddressKeys {
  return {
    exact: addressHash(email, secret),
    mailbox: keyedHash('address', canonicalAddress(email), secret),
  };
}
