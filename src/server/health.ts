import 'server-only';
import { sql } from 'drizzle-orm';
import { getDatabase } from './db';
import { errorFacts, log } from './log';

/** How long the database may take to answer a health probe (ms). */
const PROBE_TIMEOUT_MS = 2_000;

/** Whether the database answers `SELECT 1` within 2 s. Never throws. */
export async function checkHealth(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Health probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([getDatabase().then(({ db }) => db.execute(sql`SELECT 1`)), timeout]);
    return true;
  } catch (error) {
    log.warn({ event: 'health.failed', error: errorFacts(error) });
    return false;
  } finally {
    clearTimeout(timer);
  }
}
