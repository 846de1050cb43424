import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header carries `Bearer <expected>` (`/api/metrics`).
 * Compares SHA-256 digests in constant time, so neither the token nor its length leaks through
 * timing. False when the header is missing or malformed or `expected` is empty.
 */
export function hasBearerToken(header: string | null, expected: string): boolean {
  if (!expected || !header) return false;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(expected));
}
