import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

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
    /**
     * The sales folded in so far (ADR 031): the sold count is this plus the card's rows in `gift_card_sales`,
     * so tiles and "best-selling" need no count over purchases, and no sale writes this row.
     */
    soldCount: integer('sold_count').notNull().default(0),
    /** Months each card bought from it stays valid; null: no expiry. */
    validityMonths: integer('validity_months'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gift_cards_unique_id_unique').on(t.uniqueId),
    // What orders and cards name their design and its business by (ADR 038).
    unique('gift_cards_id_business_unique').on(t.id, t.businessId),
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
    check(
      'gift_cards_validity_months_range',
      sql`${t.validityMonths} IS NULL OR ${t.validityMonths} BETWEEN 1 AND 60`,
    ),
  ],
);

/**
 * Sales not yet in their gift card's `sold_count` (ADR 031): each statement that completes sales adds one row
 * per design it sold, an insert that waits for no other sale, where an update of the design's row had every
 * sale of a card queue on that row until the one before it committed. `fold_sold_counts()` moves the rows into
 * the sold counts every second; a card's sold count is its `sold_count` plus its rows here.
 */
export const giftCardSales = pgTable(
  'gift_card_sales',
  {
    giftCardId: uuid('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    sales: integer('sales').notNull(),
  },
  (t) => [
    index('gift_card_sales_gift_card_idx').on(t.giftCardId),
    check('gift_card_sales_positive', sql`${t.sales} > 0`),
  ],
);
