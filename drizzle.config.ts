import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit generates the SQL migrations in `drizzle/` from the `schema.ts` beside each feature and platform part, applied by
 * the site at start (src/server/platform/db/client.ts). The schema imports `server-only`, so run with the
 * react-server condition:
 *   NODE_OPTIONS=--conditions=react-server npx drizzle-kit generate --name <change>
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/**/schema.ts',
  out: './drizzle',
});
