import 'server-only';
import { pgTable, text } from 'drizzle-orm/pg-core';

/** Generated secrets (form-token and hashing key) when `FORM_SECRET` is not set. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
