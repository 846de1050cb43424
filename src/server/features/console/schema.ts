import 'server-only';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What an operator of the console may do: `sales` works enquiries, `admin` also operators and audit. */
export type OperatorRole = 'sales' | 'admin';

/**
 * People who may sign in to the console (better-auth's `user` model). There is no sign-up: rows
 * come from `ADMIN_EMAILS` at start and from admins (console or `leads operators add`).
 */
export const operators = pgTable('operators', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  role: text('role').$type<OperatorRole>().notNull().default('sales'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Console sessions (better-auth's `session` model); deleted with their operator (revocation). */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
  },
  (table) => [index('operator_sessions_user_id_idx').on(table.userId)],
);

/** better-auth's `account` model (unused by magic links, required by the library's core). */
export const operatorAccounts = pgTable(
  'operator_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('operator_accounts_user_id_idx').on(table.userId)],
);

/** Pending sign-in links (better-auth's `verification` model; the token is stored hashed). */
export const signInTokens = pgTable(
  'sign_in_tokens',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sign_in_tokens_identifier_idx').on(table.identifier)],
);

/**
 * A dangerous act an operator asked for on a stale sign-in (the fields they posted), kept here
 * while a fresh sign-in link is on its way: the link returns to it, and it is shown only to that
 * operator, to confirm, until `expiresAt`. One per operator (the last asked).
 */
export const pendingActs = pgTable(
  'console_pending_acts',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    act: text('act').notNull(),
    fields: jsonb('fields').$type<Record<string, string[]>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('console_pending_acts_operator_id_idx').on(table.operatorId)],
);
