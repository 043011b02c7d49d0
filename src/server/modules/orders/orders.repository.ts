import { aliasedTable, and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { gifts, purchasedCards } from '../../db/schema/cards';
import { giftCards } from '../../db/schema/catalogue';
import { orders } from '../../db/schema/orders';

export type OrderRow = typeof orders.$inferSelect;

/** What a new order is written with (the rest are the table's defaults). */
export type NewOrderRow = Pick<
  typeof orders.$inferInsert,
  | 'id'
  | 'reference'
  | 'buyerId'
  | 'giftCardId'
  | 'businessId'
  | 'amount'
  | 'currency'
  | 'provider'
  | 'idempotencyKey'
  | 'requestFingerprint'
  | 'gift'
  | 'checkoutUrl'
>;

/** The order's insert from placeholders, one per column of NewOrderRow (built once, ADR 021). */
function orderInsert(db: DbOrTx) {
  const p = <T extends keyof NewOrderRow>(name: T) => sql.placeholder(name);
  return db
    .insert(orders)
    .values({
      id: p('id'),
      reference: p('reference'),
      buyerId: p('buyerId'),
      giftCardId: p('giftCardId'),
      businessId: p('businessId'),
      amount: p('amount'),
      currency: p('currency'),
      provider: p('provider'),
      idempotencyKey: p('idempotencyKey'),
      requestFingerprint: p('requestFingerprint'),
      gift: p('gift'),
      checkoutUrl: p('checkoutUrl'),
    })
    .onConflictDoNothing({
      target: [orders.buyerId, orders.idempotencyKey],
      where: sql`${orders.idempotencyKey} IS NOT NULL`,
    })
    .returning();
}

const plainOrderInsert = builtOnce((db) => orderInsert(db).prepare('order_insert'));

/** The order's insert with a part, built once per part (a provider's payment, ADR 019). */
const withPart = new WeakMap<OrderPart, ReturnType<typeof orderWithPartStatement>>();
function orderWithPartStatement(part: OrderPart) {
  return builtOnce((db) => {
    const written = db.$with('new_order', getTableColumns(orders)).as(orderInsert(db).getSQL());
    const other = db.$with('with_order_0', {}).as(part.write(newOrderWritten));
    return db.with(written, other).select().from(written).prepare(part.name);
  });
}

/** A statement that exists only with its order (e.g. the sandbox's payment): fixed text and its values. */
export interface OrderPart {
  readonly name: string;
  write(orderWritten: SQL): SQL;
}

/**
 * Writes a new order; with an Idempotency-Key this buyer already used, writes nothing and answers undefined
 * (a parallel request with the same key waits for the first one here, then writes nothing). `part` is a
 * statement that exists only with the order, run as a CTE of the same statement and writing only under
 * `newOrderWritten` (issue 14: the sandbox's payment with its order). Both shapes are built once (ADR 021).
 */
export async function insertOrder(
  db: DbOrTx,
  row: NewOrderRow,
  part?: { of: OrderPart; values: Record<string, unknown> },
): Promise<OrderRow | undefined> {
  const values = {
    ...row,
    idempotencyKey: row.idempotencyKey ?? null,
    requestFingerprint: row.requestFingerprint ?? null,
    gift: row.gift ?? null,
    checkoutUrl: row.checkoutUrl ?? null,
  };
  if (!part) return (await plainOrderInsert(db).execute(values))[0];
  let statement = withPart.get(part.of);
  if (!statement) {
    statement = orderWithPartStatement(part.of);
    withPart.set(part.of, statement);
  }
  const [created] = await statement(db).execute({ ...values, ...part.values });
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
