import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { appSecrets } from './schema';

const SECRET_NAME = 'site';
const cache = new WeakMap<Db, Promise<string>>();

/**
 * The site secret: the key that signs every token (form, booking, manage link;
 * src/server/platform/security/signed-token.ts) and proof-of-work challenge, and salts client-address
 * hashes. `configured` (`FORM_SECRET`) when set, and every instance must share it; it is required
 * with PostgreSQL (src/server/platform/env.ts), so a dump of a shared database never holds the key. Only the
 * embedded PGlite database, private to one process, gets a random key generated once and stored in
 * it. Computed once per database handle.
 * @param db the database holding the generated key
 * @param configured `FORM_SECRET`, if set
 * @returns the secret
 * @throws Error (as a rejected promise) when the generated key cannot be stored or read; the next
 * call tries again
 */
export function getSiteSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let secret = cache.get(db);
  if (!secret) {
    secret = (async () => {
      await db
        .insert(appSecrets)
        .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing();
      const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
      if (!row) throw new Error('The site secret could not be stored.');
      return row.value;
    })();
    secret.catch(() => cache.delete(db));
    cache.set(db, secret);
  }
  return secret;
}
