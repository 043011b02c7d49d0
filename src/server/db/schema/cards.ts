import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { giftCards } from './catalogue';
import { orders } from './orders';

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
