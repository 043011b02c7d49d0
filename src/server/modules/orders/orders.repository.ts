import { aliasedTable, and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { gifts, purchasedCards } from '../../db/schema/cards';
import { giftCards } from '../../db/schema/catalogue';
import { orders } from '../../db/schema/orders';

export type OrderRow = typeof orders.$inferSelect;

/**
 * Writes a new order; with an Idempotency-Key this buyer already used, writes nothing and answers undefined
 * (a parallel request with the same key waits for the first one here, then writes nothing). `parts` are
 * statements that exist only with the order, run as CTEs of the same statement, each writing only under
 * `newOrderWritten` (issue 14: the sandbox's payment with its order).
 */
export async function insertOrder(
  db: DbOrTx,
  row: typeof orders.$inferInsert,
  parts: SQL[] = [],
): Promise<OrderRow | undefined> {
  const insert = db
    .insert(orders)
    .values(row)
    .onConflictDoNothing({
      target: [orders.buyerId, orders.idempotencyKey],
      where: sql`${orders.idempotencyKey} IS NOT NULL`,
    })
    .returning();
  if (parts.length === 0) return (await insert)[0];
  const written = db.$with('new_order', getTableColumns(orders)).as(insert.getSQL());
  const others = parts.map((part, i) => db.$with(`with_order_${i}`, {}).as(part));
  const [created] = await db
    .with(written, ...others)
    .select()
    .from(written);
  return created;
}

/** In a part of insertOrder: whether the order was written (not a retry's Idempotency-Key). */
export const newOrderWritten = sql`EXISTS (SELECT 1 FROM new_order)`;

export async function findOrderByIdempotencyKey(db: DbOrTx, buyerId: string, key: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.idempotencyKey, key)));
  return row;
}

export async function findOrder(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      order: orders,
      businessName: accounts.name,
      purchasedCardId: purchasedCards.id,
      giftId: gifts.id,
    })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.businessId))
    .leftJoin(purchasedCards, eq(purchasedCards.orderId, orders.id))
    .leftJoin(gifts, eq(gifts.orderId, orders.id))
    .where(eq(orders.id, id));
  return row;
}

export async function lockOrder(tx: DbOrTx, id: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

/** Built once (issue 14): every payment confirmation locks its order. */
const orderByReferenceLocked = builtOnce((db) =>
  db
    .select({ order: orders, validityMonths: giftCards.validityMonths, businessName: accounts.name })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.businessId))
    .leftJoin(giftCards, eq(giftCards.id, orders.giftCardId))
    .where(eq(orders.reference, sql.placeholder('reference')))
    .for('update', { of: orders })
    .prepare('order_by_reference_locked'),
);

/**
 * The order a payment confirmation names, locked (only the order's row) so concurrent deliveries of it are
 * handled one at a time, with what issuing its card needs:
 * the design's validity (null when the design is gone) and the business's name, in the same statement.
 */
export async function lockOrderByReference(tx: DbOrTx, reference: string) {
  const [row] = await orderByReferenceLocked(tx).execute({ reference });
  return row;
}

/**
 * A locked order's sale completed in one statement (issue 14: one round trip where four were): the order
 * becomes paid (its sale waiting for the sold count) and the other rooms' parts (CTEs: the sale's journal
 * entry, the issued card, the news) are written with it. Answers `written` (an SQL condition, e.g. whether
 * the journal entry found its accounts).
 */
export async function completeSale(
  tx: DbOrTx,
  orderId: string,
  paidAt: Date,
  parts: SQL[],
  written: SQL,
): Promise<boolean> {
  const result = await tx.execute<{ written: boolean }>(sql`
    WITH ${sql.join(parts, sql`, `)},
    paid AS (
      UPDATE ${orders} SET status = 'paid', paid_at = ${paidAt.toISOString()}::timestamptz, failure_reason = NULL,
                           sold_count_pending = true
       WHERE id = ${orderId}::uuid
      RETURNING id)
    SELECT ${written} AS written`);
  return result.rows[0]!.written;
}

export async function updateOrder(
  db: DbOrTx,
  id: string,
  values: Partial<typeof orders.$inferInsert>,
): Promise<void> {
  await db.update(orders).set(values).where(eq(orders.id, id));
}

/**
 * Takes the paid orders whose sale is not in a gift card's sold count yet (of one card, or of all) and marks
 * them counted, answering how many each card had. Rows another flush holds are skipped: that flush counts
 * them, so concurrent flushes never wait on each other here.
 */
export async function claimPendingSales(
  tx: DbOrTx,
  giftCardId?: string,
): Promise<{ giftCardId: string; sales: number }[]> {
  const result = await tx.execute<{ gift_card_id: string; sales: number }>(sql`
    WITH claimed AS (
      UPDATE ${orders} SET sold_count_pending = false
       WHERE id IN (
         SELECT id FROM ${orders}
          WHERE sold_count_pending ${giftCardId ? sql`AND gift_card_id = ${giftCardId}` : sql``}
          FOR UPDATE SKIP LOCKED)
         AND sold_count_pending
      RETURNING gift_card_id)
    SELECT gift_card_id, count(*)::int AS sales FROM claimed GROUP BY gift_card_id`);
  return result.rows.map((row) => ({ giftCardId: row.gift_card_id, sales: row.sales }));
}

const business = aliasedTable(accounts, 'business');
const buyer = aliasedTable(accounts, 'buyer');

const summarySelection = {
  order: orders,
  businessName: business.name,
  businessLogoKey: business.logoKey,
  uniqueId: giftCards.uniqueId,
  colour: giftCards.colour,
  purchasedCardId: purchasedCards.id,
  cardOwnerId: purchasedCards.ownerId,
  giftId: gifts.id,
  buyerName: buyer.name,
  buyerEmail: buyer.email,
  cursorTime: sql<string>`to_char(${orders.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type OrderSummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

function selectSummaries(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(summarySelection)
    .from(orders)
    .innerJoin(business, eq(business.id, orders.businessId))
    .innerJoin(buyer, eq(buyer.id, orders.buyerId))
    .innerJoin(giftCards, eq(giftCards.id, orders.giftCardId))
    .leftJoin(purchasedCards, eq(purchasedCards.orderId, orders.id))
    .leftJoin(gifts, eq(gifts.orderId, orders.id))
    .where(where);
}

export async function findOrderSummary(db: DbOrTx, id: string): Promise<OrderSummaryRow | undefined> {
  const [row] = await selectSummaries(db, eq(orders.id, id));
  return row;
}

export type OrderStateFilter =
  | { status: 'pending' | 'paid' | 'refunded' }
  | { status: 'failed'; reasonNot: string }
  | { status: 'failed'; reason: string };

/** A buyer's orders, newest first, a page at a time (orders_buyer_idx), optionally in one state. */
export async function listOrderSummaries(
  db: DbOrTx,
  buyerId: string,
  query: { state?: OrderStateFilter; limit: number; after?: { time: string; id: string } },
) {
  const { state, after } = query;
  return selectSummaries(
    db,
    and(
      eq(orders.buyerId, buyerId),
      state ? eq(orders.status, state.status) : undefined,
      state && 'reason' in state ? eq(orders.failureReason, state.reason) : undefined,
      state && 'reasonNot' in state
        ? sql`${orders.failureReason} IS DISTINCT FROM ${state.reasonNot}`
        : undefined,
      after
        ? sql`(${orders.createdAt}, ${orders.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
        : undefined,
    ),
  )
    .orderBy(sql`${orders.createdAt} DESC`, sql`${orders.id} DESC`)
    .limit(query.limit);
}
