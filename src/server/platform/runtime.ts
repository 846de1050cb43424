import 'server-only';
import { getDatabase, type Db } from './db';
import { readEnv, type Env, type EnvSlice } from './env';
import { verifiedSiteSecret } from './security/key-fingerprint';

/** What request-time code runs with: the validated environment, the database and the site secret. */
export type Runtime<E extends Env = Env> = {
  /** The platform's variables, with those of the slices asked for. */
  env: E;
  /** The site's database (opened on first use, then shared by the process). */
  db: Db;
  /** The site secret: FORM_SECRET, else the embedded database's generated key; checked against the database's fingerprint. */
  secret: string;
};

/**
 * The one entry of request-time code (routes, actions, features' services) to the site's wiring:
 * the environment (the platform's variables and, when given, a feature's `slices`, e.g. demo
 * booking's), the database and the site secret, each computed once per process.
 * @throws Error (as a rejected promise) for an invalid environment, a database that does not
 * open, a generated secret that cannot be stored, or a key that is not the database's
 * (SiteKeyMismatchError).
 */
export async function getRuntime<T extends object = object>(
  slices: readonly EnvSlice<T>[] = [],
): Promise<Runtime<Env & T>> {
  const env = readEnv(slices);
  const { db } = await getDatabase();
  return { env, db, secret: await verifiedSiteSecret(db, env.FORM_SECRET) };
}
