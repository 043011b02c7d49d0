import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  foreignKey,
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
import { giftCards } from './catalogue';
import { orders } from './orders';

export const purchasedCardStatus = pgEnum('purchased_card_status', [
  'active',
  'redeemed',
  'expired',
  'void',
  'frozen',
  'blocked',
  /** In a gift that is scheduled or waiting for the recipient: it cannot be spent, refunded or sent again. */
  'gift_pending',
]);

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
    // The design and its business, one key (ADR 038): a card is of a design of the business it names.
    giftCardId: uuid('gift_card_id').notNull(),
    businessId: uuid('business_id').notNull(),
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
    /** Why the business blocked it (status blocked), e.g. reported lost. */
    blockedReason: text('blocked_reason'),
    /** When the "expires in 7 days" reminder went out (once). */
    expiryRemindedAt: timestamp('expiry_reminded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchased_cards_order_unique').on(t.orderId),
    uniqueIndex('purchased_cards_code_hash_unique').on(t.codeHash),
    index('purchased_cards_owner_idx').on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    // A business's sold cards, newest first, and its search by the code's last four.
    index('purchased_cards_business_idx').on(t.businessId, t.createdAt.desc(), t.id.desc()),
    index('purchased_cards_business_last4_idx').on(t.businessId, t.codeLast4),
    // The sales table filtered by status or by design, still newest first at a million cards (issue 13).
    index('purchased_cards_business_status_idx').on(t.businessId, t.status, t.createdAt.desc(), t.id.desc()),
    index('purchased_cards_business_design_idx').on(
      t.businessId,
      t.giftCardId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    // The daily expiry job looks only at cards that can still expire (named by the statuses that cannot,
    // because PostgreSQL refuses an enum value in the same transaction that adds it).
    index('purchased_cards_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL AND ${t.status} NOT IN ('redeemed', 'expired', 'void')`),
    foreignKey({
      name: 'purchased_cards_design_of_business_fk',
      columns: [t.giftCardId, t.businessId],
      foreignColumns: [giftCards.id, giftCards.businessId],
    }).onDelete('restrict'),
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
  'reverse',
  'expire',
  'block',
  'unblock',
  'freeze',
  'unfreeze',
  'gift_sent',
  'gift_returned',
]);

/**
 * Every change to a purchased card's balance, status or owner, with the balance after it. Append-only, and
 * the card's balance always equals what its activities add up to (triggers in 0007_card_integrity.sql): from
 * its initial value, since a card sold from migration 0029 on is its own issue and has no issue activity
 * (ADR 039); from nothing for a card sold before, whose issue is an activity.
 */
export const cardActivities = pgTable(
  'card_activities',
  {
    id: timeOrderedId(),
    purchasedCardId: uuid('purchased_card_id')
      .notNull()
      .references(() => purchasedCards.id, { onDelete: 'restrict' }),
    kind: cardActivityKind('kind').notNull(),
    /** Signed minor units: +value on issue, −amount on a redemption. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }).notNull(),
    /** Who did it (the business at the till, the holder who froze it); null for the system (expiry). */
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'restrict' }),
    /** The till reference or note, or the reason for a block. */
    reference: text('reference'),
    /** A reversal names the redemption it gives back; one reversal per redemption. */
    reversesId: uuid('reverses_id').references((): AnyPgColumn => cardActivities.id, {
      onDelete: 'restrict',
    }),
    /** The caller's Idempotency-Key and a hash of its request, so a retry returns this activity. */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The activity's place in its card's history (1, 2, 3…), set by the running-balance trigger under the
     * card's lock whatever the insert says (migration 0016): the card's last activity is found by it, so
     * the integrity checks read one row instead of summing the history. 0 for activities written before.
     * A card's issue is written with 1 (ADR 033).
     */
    seq: integer('seq').notNull().default(0),
    /**
     * The transaction that wrote it (ADR 024): the holder's news of a redemption or a reversal is written
     * after it commits, by `deliverCardNews`, which takes the activities of the transactions since
     * `card_news.through`.
     */
    xact: xid8('xact')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('card_activities_card_idx').on(t.purchasedCardId, t.createdAt),
    // Activities written before 0016 (or by a load that skipped the triggers) keep 0 and are summed instead.
    uniqueIndex('card_activities_card_seq_unique')
      .on(t.purchasedCardId, t.seq)
      .where(sql`${t.seq} > 0`),
    uniqueIndex('card_activities_reverses_unique')
      .on(t.reversesId)
      .where(sql`${t.reversesId} IS NOT NULL`),
    uniqueIndex('card_activities_idempotency_unique')
      .on(t.actorId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    // A business's redemptions, newest first. Only activities with an actor (ADR 038): every query of it names
    // one, and a sale's issue, which has none, writes no entry here.
    index('card_activities_actor_idx')
      .on(t.actorId, t.createdAt.desc())
      .where(sql`${t.actorId} IS NOT NULL`),
    // The activities since `card_news.through` (ADR 024), but a sale's issue (no news; it would cost every
    // purchase an index entry). 'issue' because the type was made with it: a predicate naming a value added
    // later (like 'reverse') cannot be built on PostgreSQL 15 in the transaction that migrates a new database.
    index('card_activities_xact_idx')
      .on(t.xact)
      .where(sql`${t.kind} <> 'issue'`),
    // The issue activity of a card sold before 0029 (ADR 039) is its first, numbered 1 with its whole value as
    // its balance, without the running-balance trigger (ADR 033): one a card. Issues written before 0016 keep
    // their 0.
    uniqueIndex('card_activities_one_issue')
      .on(t.purchasedCardId)
      .where(sql`${t.kind} = 'issue'`),
    check(
      'card_activities_issue_first',
      sql`${t.kind} <> 'issue' OR ${t.seq} = 0 OR (${t.seq} = 1 AND ${t.balanceAfter} = ${t.amount} AND ${t.amount} >= 0)`,
    ),
  ],
);

/** One row: the holder's news is written for every redemption and reversal of the transactions before `through`. */
export const cardNews = pgTable(
  'card_news',
  {
    one: boolean('one').primaryKey().default(true),
    through: xid8('through').notNull(),
  },
  (t) => [check('card_news_one_row', sql`${t.one}`)],
);

export const giftStatus = pgEnum('gift_status', [
  'scheduled',
  'pending',
  'accepted',
  'declined',
  'cancelled',
  'expired',
]);

/**
 * A card on its way from its holder to someone else. It waits as pending (or scheduled, until deliverAt)
 * until the recipient accepts; then the card changes owner with a new code. A recipient with an account is
 * named by `recipientAccountId`; an e-mail address without one gets a single-use link whose token is kept
 * only as a hash.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchasedCardId: uuid('purchased_card_id')
      .notNull()
      .references(() => purchasedCards.id, { onDelete: 'restrict' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    recipientAccountId: uuid('recipient_account_id').references(() => accounts.id, { onDelete: 'restrict' }),
    /** Lower-cased e-mail address of the recipient (theirs, when named by username). */
    recipientEmail: text('recipient_email').notNull(),
    /** What the sender typed (an e-mail address or a username), shown back to the sender. */
    recipientLabel: text('recipient_label').notNull(),
    recipientName: text('recipient_name'),
    message: text('message'),
    deliverAt: timestamp('deliver_at', { withTimezone: true }),
    status: giftStatus('status').notNull(),
    /** SHA-256 of the link's 256-bit token; replaced when the sender corrects the address. */
    tokenHash: text('token_hash'),
    /** Set when it is sent: a pending gift nobody accepts by then returns to the sender. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The order when the card was bought as a gift. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    /** Whether the link was used up (accepted or declined through it). */
    tokenUsed: boolean('token_used').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open gift per card: a card in a gift cannot be sent again until it ends.
    uniqueIndex('gifts_open_card_unique')
      .on(t.purchasedCardId)
      .where(sql`${t.status} IN ('scheduled', 'pending')`),
    uniqueIndex('gifts_token_hash_unique').on(t.tokenHash),
    uniqueIndex('gifts_order_unique').on(t.orderId),
    index('gifts_sender_idx').on(t.senderId, t.createdAt.desc(), t.id.desc()),
    index('gifts_recipient_idx').on(t.recipientAccountId, t.createdAt.desc()),
    index('gifts_recipient_email_idx').on(t.recipientEmail, t.createdAt.desc()),
    index('gifts_due_idx')
      .on(t.deliverAt)
      .where(sql`${t.status} = 'scheduled'`),
    index('gifts_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    check('gifts_message_length', sql`${t.message} IS NULL OR char_length(${t.message}) <= 500`),
  ],
);
