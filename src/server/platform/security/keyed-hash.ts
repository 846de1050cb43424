import 'server-only';
import { createHmac } from 'node:crypto';

/**
 * What a keyed hash is for, and the label put before the value it hashes. The labels are fixed
 * forever: stored hashes (suppressions, tombstones, booking client hashes, rate-limit keys) were
 * made with them. `address` has none: an e-mail address's hash predates the labels, and every past
 * erasure's suppression and tombstone hold that formula.
 */
const labels = {
  /** An e-mail address trimmed and lower-cased, or its canonical form (people/address-hash.ts). */
  address: '',
  /** A client's network address (http/client-address.ts). */
  client: 'client:',
  /** A visitor of one day: address, user agent and host, keyed by the day's salt (sources). */
  visit: 'visit:',
  /** The fixed label whose hash fingerprints the key itself (security/key-fingerprint.ts). */
  fingerprint: 'fingerprint:',
} as const;

/** The purpose of a keyed hash: one label per use, so two uses never share a hash. */
export type HashPurpose = keyof typeof labels;

/**
 * The keyed hash of `value` for `purpose`: HMAC-SHA-256, keyed with `secret` (the site secret,
 * getSiteSecret), of the purpose's label followed by `value`, in hex. It recognises a value again
 * without holding it. The value is hashed as given: callers normalise it first.
 * @returns 64 hex characters
 */
export function keyedHash(purpose: HashPurpose, value: string, secret: string): string {
  return createHmac('sha256', secret).update(`${labels[purpose]}${value}`).digest('hex');
}
