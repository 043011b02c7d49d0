import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { timeOrderedId, xid8 } from './column-types';

/**
 * Double-entry ledger. A ledger account holds money for someone (a business wallet) or for the platform.
 * Its balance is the sum of its postings. `ledger_balances` keeps that sum folded up to a point in the
 * history (ADR 022), so a balance is read without summing all of it; the postings stay the only source.
 */
export const ledgerAccountKind = pgEnum('ledger_account_kind', [
  'business_wallet',
  'payment_clearing',
  'platform_revenue',
  'payouts_in_flight',
  'payouts_settled',
]);

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: ledgerAccountKind('kind').notNull(),
    /** The business that owns a wallet; null for platform accounts. */
    ownerId: uuid('owner_id').references(() => accounts.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_kind_unique')
      .on(t.kind, t.ownerId, t.currency)
      .where(sql`${t.ownerId} IS NOT NULL`),
    uniqueIndex('ledger_accounts_platform_kind_unique')
      .on(t.kind, t.currency)
      .where(sql`${t.ownerId} IS NULL`),
  ],
);

/** One money movement. Append-only: a trigger refuses UPDATE and DELETE, and one that does not sum to zero. */
export const journalEntries = pgTable('journal_entries', {
  id: timeOrderedId(),
  kind: text('kind').notNull(),
  /** What caused it, unique so a retried movement cannot be written twice (e.g. "order:<id>"). */
  reference: text('reference').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const postings = pgTable(
  'postings',
  {
    id: timeOrderedId(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id, { onDelete: 'restrict' }),
    ledgerAccountId: uuid('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    /** Signed minor units: positive raises this account's balance, negative lowers it. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    /** The transaction that wrote it (ADR 022): which postings `ledger_balances` has folded in. */
    xact: xid8('xact')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('postings_entry_idx').on(t.entryId),
    // An account's postings in the ledger's order: the balance's postings since the fold (ADR 022) and the
    // statement's pages, whose sum of the postings above a page is read from this index alone (the amount).
    index('postings_ledger_account_xact_idx').on(t.ledgerAccountId, t.xact, t.id, t.amount),
    index('postings_xact_idx').on(t.xact),
    check('postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * Each ledger account's postings summed up to `ledger_fold.through` (ADR 022): the postings of every
 * transaction that began before it. Written only by `fold_ledger_balances()`; read by `ledger_balance()`.
 */
export const ledgerBalances = pgTable('ledger_balances', {
  ledgerAccountId: uuid('ledger_account_id')
    .primaryKey()
    .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
  balance: bigint('balance', { mode: 'bigint' }).notNull(),
});

/** One row: how far `ledger_balances` has folded the postings (transactions before `through`). */
export const ledgerFold = pgTable(
  'ledger_fold',
  {
    one: boolean('one').primaryKey().default(true),
    through: xid8('through').notNull(),
  },
  (t) => [check('ledger_fold_one_row', sql`${t.one}`)],
);

/**
 * A business's transaction PIN (a keyed hash, `hmac-sha256$v1$…`, or argon2id from before issue 14) and its
 * wrong-try counter and lock-out. `recent_locks` holds when the lock-outs of the last 24 hours began; the
 * third one sets `reset_required_at`, and from then on only a new PIN set with the account password unlocks
 * withdrawals (issue 12, hole 10).
 */
export const transactionPins = pgTable('transaction_pins', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  pinHash: text('pin_hash').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  recentLocks: timestamp('recent_locks', { withTimezone: true })
    .array()
    .notNull()
    .default(sql`'{}'::timestamptz[]`),
  resetRequiredAt: timestamp('reset_required_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A business's bank accounts for payouts. The account name is the one the payout provider resolved from
 * the bank code and NUBAN; at most one is the default. Removing one keeps the row for the history.
 */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    bankCode: text('bank_code').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** The payout provider's recipient id (Paystack transfer recipient), when it has one. */
    recipientCode: text('recipient_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('bank_accounts_business_idx').on(t.businessId),
    uniqueIndex('bank_accounts_one_default')
      .on(t.businessId)
      .where(sql`${t.isDefault} AND ${t.removedAt} IS NULL`),
    uniqueIndex('bank_accounts_unique_live')
      .on(t.businessId, t.bankCode, t.accountNumber)
      .where(sql`${t.removedAt} IS NULL`),
    check('bank_accounts_nuban', sql`${t.accountNumber} ~ '^[0-9]{10}$'`),
  ],
);

export const withdrawalStatus = pgEnum('withdrawal_status', ['requested', 'processing', 'paid', 'failed']);

/**
 * Money leaving a business's wallet for its bank. The ledger entry (wallet → payouts in flight) is written
 * with the request; a payout moves it on to settled, a failure reverses it back into the wallet.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    bankAccountId: uuid('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: withdrawalStatus('status').notNull().default('requested'),
    /** Our payout reference, sent to the provider; never reused. */
    reference: text('reference').notNull(),
    providerTransferCode: text('provider_transfer_code'),
    failureReason: text('failure_reason'),
    idempotencyKey: text('idempotency_key'),
    requestFingerprint: text('request_fingerprint'),
    /** When the payout job may next pick it up (a lease while a worker holds it). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('withdrawals_reference_unique').on(t.reference),
    uniqueIndex('withdrawals_business_idempotency_unique')
      .on(t.businessId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    index('withdrawals_business_idx').on(t.businessId, t.createdAt.desc(), t.id.desc()),
    index('withdrawals_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} IN ('requested', 'processing')`),
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * The sandbox payout provider's own record of transfers (a real provider keeps these on its side): one per
 * reference, so asking it twice to send the same payout sends it once, even across a restart.
 */
export const sandboxTransfers = pgTable('sandbox_transfers', {
  reference: text('reference').primaryKey(),
  accountNumber: text('account_number').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  currency: text('currency').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
