import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit generates the SQL migrations in `drizzle/` from src/server/db/schema.ts, applied by
 * the site at start (src/server/db/migrate.ts). The schema imports `server-only`, so run with the
 * react-server condition:
 *   NODE_OPTIONS=--conditions=react-server npx drizzle-kit generate --name <change>
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './drizzle',
});
