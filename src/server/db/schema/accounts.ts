import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('account_role', ['business', 'user']);

/**
 * Businesses and users share one table so that an email is unique across both roles by one index.
 * Business-only and user-only columns are nullable and checked by role.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    role: roleEnum('role').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    username: text('username'),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    logoKey: text('logo_key'),
    /** Set when the owner deleted the account: personal columns are anonymised, money records stay. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('accounts_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('accounts_business_name_unique')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.role} = 'business'`),
    check('accounts_user_has_username', sql`${t.role} <> 'user' OR ${t.username} IS NOT NULL`),
  ],
);

/** Opaque session tokens: only an HMAC of the token is stored, so a database leak does not leak sessions. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** "remember me": a 30-day cookie; otherwise a browser-session cookie (the row still expires). */
    persistent: boolean('persistent').notNull(),
    kind: text('kind', { enum: ['cookie', 'bearer'] }).notNull(),
    /** What the owner sees in the list of signed-in devices: the browser's User-Agent (truncated) and IP. */
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Touched at most once a minute per session by the auth plugin. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_account_idx').on(t.accountId),
  ],
);

export const accountTokenPurposeEnum = pgEnum('account_token_purpose', ['password_reset', 'email_change']);

/**
 * Single-use links mailed to an account owner (forgot password, confirm a new e-mail address). Only the SHA-256
 * of the 256-bit token is stored; `usedAt` makes it single-use; `newEmail` is the address being confirmed.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: accountTokenPurposeEnum('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    newEmail: text('new_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('account_tokens_token_hash_unique').on(t.tokenHash),
    index('account_tokens_account_idx').on(t.accountId, t.purpose),
    check(
      'account_tokens_email_change_has_address',
      sql`(${t.purpose} = 'email_change') = (${t.newEmail} IS NOT NULL)`,
    ),
  ],
);
