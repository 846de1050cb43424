import 'server-only';
import { getDatabase } from './db';
import { getEnv } from './env';
import { installPeerAddressHeader } from './http/peer-address';
import { errorFacts, log } from './log';
import { purgeExpired } from './leads/operations';
import { startOutboxWorker } from './outbox/runtime';

/**
 * Runs once when the server starts (from `instrumentation.ts`): validates the environment, opens
 * and migrates the database (PGlite's first open takes a second or two, better here than on the
 * first enquiry), starts the outbox worker, and purges enquiries past LEADS_RETENTION_DAYS now and
 * daily.
 * @throws when the environment is invalid (the server should not run misconfigured). A database
 * that is down is only logged: pages still serve, `/api/health` reports 503, and the next use
 * tries again.
 */
export async function startServer(): Promise<void> {
  const env = getEnv();
  installPeerAddressHeader();
  try {
    const database = await getDatabase();
    log.info({ event: 'database.ready', kind: database.kind });
    startOutboxWorker(database, env);
    const purge = () =>
      purgeExpired(database.db, env.LEADS_RETENTION_DAYS)
        .then((count) => log.info({ event: 'leads.purged', count }))
        .catch((error: unknown) => log.error({ event: 'leads.purge_failed', error: errorFacts(error) }));
    void purge();
    setInterval(purge, 86_400_000).unref();
  } catch (error) {
    log.error({ event: 'database.unavailable', error: errorFacts(error) }, 'Database unavailable at start');
  }
}
