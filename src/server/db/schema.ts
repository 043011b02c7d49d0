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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_account_idx').on(t.accountId),
  ],
);

/**
 * Fixed-window counters for rate limits (login failures now, code look-ups later). Kept in PostgreSQL so
 * several app instances share them.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/**
 * Double-entry ledger. A ledger account holds money for someone (a business wallet) or for the platform.
 * Its balance is the sum of its postings; nothing else stores a balance.
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
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  /** What caused it, unique so a retried movement cannot be written twice (e.g. "order:<id>"). */
  reference: text('reference').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const postings = pgTable(
  'postings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id, { onDelete: 'restrict' }),
    ledgerAccountId: uuid('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    /** Signed minor units: positive raises this account's balance, negative lowers it. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
  },
  (t) => [
    index('postings_entry_idx').on(t.entryId),
    index('postings_ledger_account_idx').on(t.ledgerAccountId),
    check('postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * A gift card a business designs and sells (the seed's entity). Buying it issues a new purchased card each
 * time; `uniqueId` is its public, readable identifier (e.g. ACM-7K2Q-9XTR), not a redemption secret.
 */
export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    uniqueId: text('unique_id').notNull(),
    /** Face value in minor units. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    colour: text('colour').notNull(),
    /** A stopped card leaves the catalogue; cards already bought stay valid. */
    onSale: boolean('on_sale').notNull().default(true),
    /** Kept by the purchase transaction, so tiles and "best-selling" need no count over purchases. */
    soldCount: integer('sold_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gift_cards_unique_id_unique').on(t.uniqueId),
    // Catalogue: newest first, keyset on (created_at, id), only cards on sale.
    index('gift_cards_catalogue_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.onSale}`),
    index('gift_cards_business_catalogue_idx')
      .on(t.businessId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.onSale}`),
    index('gift_cards_business_idx').on(t.businessId, t.createdAt.desc(), t.id.desc()),
    check('gift_cards_amount_positive', sql`${t.amount} > 0`),
    check('gift_cards_colour_hex', sql`${t.colour} ~ '^#[0-9a-f]{6}$'`),
    check('gift_cards_sold_count_nonnegative', sql`${t.soldCount} >= 0`),
  ],
);

export const orderStatus = pgEnum('order_status', ['pending', 'paid', 'failed']);

/**
 * A purchase: created pending before any payment, completed only by a verified confirmation from the
 * payment provider. `reference` is what the provider knows it by.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    giftCardId: uuid('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    businessId: uuid('business_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: orderStatus('status').notNull().default('pending'),
    provider: text('provider').notNull(),
    checkoutUrl: text('checkout_url'),
    failureReason: text('failure_reason'),
    /** The buyer's Idempotency-Key and a fingerprint of what it was sent with. */
    idempotencyKey: text('idempotency_key'),
    requestFingerprint: text('request_fingerprint'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_reference_unique').on(t.reference),
    uniqueIndex('orders_buyer_idempotency_unique')
      .on(t.buyerId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    check('orders_amount_positive', sql`${t.amount} > 0`),
  ],
);

export const purchasedCardStatus = pgEnum('purchased_card_status', ['active', 'redeemed', 'expired', 'void']);

/**
 * A card issued to a buyer from a gift card. The redemption code is never stored in clear: `codeHash` is a
 * keyed hash for look-ups, `codeCiphertext` an AES-256-GCM copy only the owner can have revealed.
 */
export const purchasedCards = pgTable(
  'purchased_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    giftCardId: uuid('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    businessId: uuid('business_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    initialValue: bigint('initial_value', { mode: 'bigint' }).notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: purchasedCardStatus('status').notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    codeHash: text('code_hash').notNull(),
    codeCiphertext: text('code_ciphertext').notNull(),
    codeLast4: text('code_last4').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchased_cards_order_unique').on(t.orderId),
    uniqueIndex('purchased_cards_code_hash_unique').on(t.codeHash),
    index('purchased_cards_owner_idx').on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    check('purchased_cards_balance_range', sql`${t.balance} >= 0 AND ${t.balance} <= ${t.initialValue}`),
  ],
);

export const cardActivityKind = pgEnum('card_activity_kind', [
  'issue',
  'redeem',
  'refund',
  'adjust',
  'void',
  'transfer',
]);

/** Every change to a purchased card's balance or owner, with the balance after it. */
export const cardActivities = pgTable(
  'card_activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchasedCardId: uuid('purchased_card_id')
      .notNull()
      .references(() => purchasedCards.id, { onDelete: 'restrict' }),
    kind: cardActivityKind('kind').notNull(),
    /** Signed minor units: +value on issue, −amount on a redemption. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_activities_card_idx').on(t.purchasedCardId, t.createdAt)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Where the notification leads in the app, e.g. /user-dashboard/mycards/<id>. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_account_idx').on(t.accountId, t.createdAt.desc())],
);

/**
 * The sandbox payment provider's own records: it behaves like a real provider in test mode (a hosted
 * checkout, test cards that succeed or decline, and a signed webhook sent a moment later, retried until
 * the app accepts it). A real provider keeps these on its side.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'declined'] })
      .notNull()
      .default('pending'),
    declineReason: text('decline_reason'),
    cardLast4: text('card_last4'),
    returnUrl: text('return_url').notNull(),
    webhookAttempts: integer('webhook_attempts').notNull().default(0),
    webhookNextAt: timestamp('webhook_next_at', { withTimezone: true }),
    webhookDeliveredAt: timestamp('webhook_delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_payments_reference_unique').on(t.reference),
    index('sandbox_payments_webhook_due_idx')
      .on(t.webhookNextAt)
      .where(sql`${t.webhookDeliveredAt} IS NULL AND ${t.webhookNextAt} IS NOT NULL`),
  ],
);

/** A business's transaction PIN (argon2id hash) and its wrong-try counter and lock-out. */
export const transactionPins = pgTable('transaction_pins', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  pinHash: text('pin_hash').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
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
