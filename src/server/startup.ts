import 'server-only';
import { getDatabase } from './db';
import { getEnv } from './env';
import { installPeerAddressHeader } from './http/peer-address';
import { errorFacts, log } from './log';
import { startOutboxWorker } from './outbox/runtime';

/**
 * Runs once when the server starts (from `instrumentation.ts`): validates the environment, opens
 * and migrates the database (PGlite's first open takes a second or two, better here than on the
 * first enquiry) and starts the outbox worker.
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
  } catch (error) {
    log.error({ event: 'database.unavailable', error: errorFacts(error) }, 'Database unavailable at start');
  }
}
