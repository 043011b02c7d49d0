import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { giftCards } from './catalogue';

/** The gift request kept with an order bought as a gift (the same fields as sending a held card). */
export interface OrderGiftColumn {
  recipient: string;
  recipientName?: string;
  message?: string;
  deliverAt?: string;
}

export const orderStatus = pgEnum('order_status', ['pending', 'paid', 'failed', 'refunded']);

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
    // The design and its business, one key (ADR 038): an order is for a design of the business it names.
    giftCardId: uuid('gift_card_id').notNull(),
    businessId: uuid('business_id').notNull(),
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
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Bought as a gift: who it goes to, sent when the payment is confirmed. */
    gift: jsonb('gift').$type<OrderGiftColumn>(),
  },
  (t) => [
    uniqueIndex('orders_reference_unique').on(t.reference),
    uniqueIndex('orders_buyer_idempotency_unique')
      .on(t.buyerId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    foreignKey({
      name: 'orders_design_of_business_fk',
      columns: [t.giftCardId, t.businessId],
      foreignColumns: [giftCards.id, giftCards.businessId],
    }).onDelete('restrict'),
    check('orders_amount_positive', sql`${t.amount} > 0`),
  ],
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
