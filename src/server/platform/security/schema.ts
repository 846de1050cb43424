import 'server-only';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Generated secrets (form-token and hashing key) when `FORM_SECRET` is not set. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The fingerprint of the key the database's keyed hashes and signed links were made with (one row,
 * `name` `site`): a keyed hash of a fixed label, never the key (platform/security/key-fingerprint.ts).
 */
export const keyFingerprints = pgTable('key_fingerprints', {
  name: text('name').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
});
