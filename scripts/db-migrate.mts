/**
 * Release step: `npm run db:migrate` applies the SQL migrations in `drizzle/` to the site's database
 * (DATABASE_URL, or PGlite in DATA_DIR) and exits (docs/deployment.md). Idempotent (applied
 * migrations are skipped) and safe beside running instances: it migrates under the same PostgreSQL
 * advisory lock as their start-up. Used by the compose `migrate` job; `npm start` still migrates at
 * start by default. Runs under tsx with the `react-server` condition like `npm run leads`.
 * Exits 1 with the error logged when the database is unreachable or a migration fails.
 */
import { getDatabase } from '@/server/platform/db';
import { errorFacts, log } from '@/server/platform/log';

try {
  const database = await getDatabase();
  log.info({ event: 'database.migrated', kind: database.kind });
  await database.close();
} catch (error) {
  log.error({ event: 'database.migration_failed', error: errorFacts(error) }, 'Migration failed');
  process.exitCode = 1;
}
