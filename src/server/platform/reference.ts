import 'server-only';
import { randomBytes } from 'node:crypto';

/** Crockford's base-32 alphabet: no I, L, O or U, so a reference reads unambiguously on the phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new reference, `prefix`, a dash and 10 random base-32 characters (50 bits): an enquiry's
 * `NH-7K3P9QXD2M` (the default prefix), a privacy request's `PR-7K3P9QXD2M`.
 */
export function newReference(prefix: 'NH' | 'PR' = 'NH'): string {
  const bytes = randomBytes(10);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte & 31];
  return `${prefix}-${code}`;
}

/** A reference's form: its prefix, a dash and 10 characters of the alphabet. */
const REFERENCE = new RegExp(`^(NH|PR)-[${ALPHABET}]{10}$`);

/**
 * Whether `value` has a reference's form (newReference): `NH-` or `PR-` and 10 characters of its
 * base-32 alphabet, upper case. A page shows a reference it is handed in its address only then,
 * so a link cannot make the site print text of someone else's choosing.
 */
export function isReference(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE.test(value);
}
