import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { appSecrets } from '../db/schema';

const SECRET_NAME = 'site';
const cache = new WeakMap<Db, Promise<string>>();

/**
 * The key that signs form tokens and salts client-address hashes. `FORM_SECRET` when set (every
 * instance must share it); otherwise a random key generated once and stored in the database, so
 * instances sharing a database agree without configuration.
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
