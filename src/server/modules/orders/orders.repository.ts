import { aliasedTable, and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { batchRows, builtOnce, rowsByKey, sqlBuiltOnce, type DbOrTx } from '../../db/client';
import { batchedLookup, batchedPerPool, perOwner } from '../../lib/batch';
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

/**
 * Orders' insert from placeholders, one array per column of NewOrderRow (one element per order) and each
 * order's business name as its design was read, built once (ADR 021; many orders at once, ADR 027). An order
 * is written only while its design is on sale and still as the order copied it (its business, price and
 * currency, and the business's name it showed; ADR 030): one look-up of the design and one of its business by
 * primary key, lateral subqueries with OFFSET 0 so that a plan made on new, unanalyzed tables still probes the
 * indexes. With an Idempotency-Key its buyer already used, an order is not written (and a parallel request
 * with the same key waits for the first one here, then writes nothing).
 */
export function ordersInsert() {
  const p = (name: string) => sql.placeholder(name);
  return sql`
    INSERT INTO ${orders} (id, reference, buyer_id, gift_card_id, business_id, amount, currency, provider,
                           idempotency_key, request_fingerprint, gift, checkout_url)
    SELECT o.id, o.reference, o.buyer_id, o.gift_card_id, o.business_id, o.amount, o.currency, o.provider,
           o.idempotency_key, o.request_fingerprint, o.gift, o.checkout_url
      FROM ${batchRows('o', {
        id: sql`${p('ids')}::uuid[]`,
        reference: sql`${p('references')}::text[]`,
        buyer_id: sql`${p('buyerIds')}::uuid[]`,
        gift_card_id: sql`${p('giftCardIds')}::uuid[]`,
        business_id: sql`${p('businessIds')}::uuid[]`,
        amount: sql`${p('amounts')}::bigint[]`,
        currency: sql`${p('currencies')}::text[]`,
        provider: sql`${p('providers')}::text[]`,
        idempotency_key: sql`${p('idempotencyKeys')}::text[]`,
        request_fingerprint: sql`${p('requestFingerprints')}::text[]`,
        gift: sql`${p('gifts')}::jsonb[]`,
        checkout_url: sql`${p('checkoutUrls')}::text[]`,
        business_name: sql`${p('businessNames')}::text[]`,
      })}
     WHERE EXISTS (
       SELECT 1 FROM (SELECT g.on_sale, g.business_id, g.amount, g.currency FROM ${giftCards} g
                       WHERE g.id = o.gift_card_id OFFSET 0) AS design
         JOIN LATERAL (SELECT a.name FROM ${accounts} a WHERE a.id = design.business_id OFFSET 0) AS business
           ON true
        WHERE design.on_sale AND design.business_id = o.business_id AND design.amount = o.amount
          AND design.currency = o.currency AND business.name = o.business_name)
    ON CONFLICT (buyer_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING *`;
}

/** The orders' insert, with a part or without, built once (a provider's payment, ADR 019). */
function ordersStatement(part: OrderPart | undefined) {
  return builtOnce((db) => {
    const written = db.$with('new_order', getTableColumns(orders)).as(ordersInsert());
    if (!part) return db.with(written).select().from(written).prepare('orders_insert');
    const other = db.$with('with_order_0', {}).as(part.write(sql`SELECT reference FROM new_order`));
    return db.with(written, other).select().from(written).prepare(part.name);
  });
}

/**
 * A statement that exists only with its order (e.g. the sandbox's payment): fixed text, taking one array
 * element per order, and each order's values.
 */
export interface OrderPart {
  readonly name: string;
  /** Writes only for the orders whose references `ordersWritten` (a subquery) answers. */
  write(ordersWritten: SQL): SQL;
}

/** An order to write, with its part's values (when its provider has a part). */
export interface OrderToInsert {
  row: NewOrderRow;
  /** Its business's name as its design was read: the order is written only while that is still the name. */
  businessName: string;
  part?: { of: OrderPart; values: Record<string, unknown> };
}

/**
 * One batch, and one statement built once, per part: a part's orders go in statements of their own (one
 * statement has one shape); no part is `NO_PART`.
 */
const NO_PART = {};
const orderInserts = perOwner((part: object) => {
  const statement = ordersStatement(part === NO_PART ? undefined : (part as OrderPart));
  return batchedPerPool<OrderToInsert, OrderRow | undefined>((db) => ({
    // One statement cannot see its own write of a buyer's Idempotency-Key.
    keys: ({ row }) => (row.idempotencyKey ? [`${row.buyerId}:${row.idempotencyKey}`] : []),
    run: async (batch) => {
      const column = <T>(pick: (row: NewOrderRow) => T) => batch.map((o) => pick(o.row));
      const partValues: Record<string, unknown[]> = {};
      for (const { part: p } of batch) {
        for (const [name, value] of Object.entries(p?.values ?? {})) (partValues[name] ??= []).push(value);
      }
      const rows = await statement(db).execute({
        ids: column((r) => r.id),
        references: column((r) => r.reference),
        buyerIds: column((r) => r.buyerId),
        giftCardIds: column((r) => r.giftCardId),
        businessIds: column((r) => r.businessId),
        amounts: column((r) => String(r.amount)),
        currencies: column((r) => r.currency),
        providers: column((r) => r.provider),
        idempotencyKeys: column((r) => r.idempotencyKey ?? null),
        requestFingerprints: column((r) => r.requestFingerprint ?? null),
        gifts: column((r) => (r.gift ? JSON.stringify(r.gift) : null)),
        checkoutUrls: column((r) => r.checkoutUrl ?? null),
        businessNames: batch.map((o) => o.businessName),
        ...partValues,
      });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return batch.map((o) => byId.get(o.row.id!));
    },
  }));
});

/**
 * Writes a new order; answers undefined, writing nothing, when this buyer already used its Idempotency-Key
 * (a parallel request with the same key waits for the first one here, then writes nothing) or when its
 * design is no longer on sale or no longer as the order copied it (`ordersInsert`). `part` is a statement
 * that exists only with the order, run as a CTE of the same statement and writing only when its order is
 * written (issue 14: the sandbox's payment with its order). On the pool, the order waits for a free run and
 * shares it with the others waiting (ADR 027); inside a transaction it is written at once, alone.
 */
export function insertOrder(
  db: DbOrTx,
  order: Omit<OrderToInsert, 'part'>,
  part?: OrderToInsert['part'],
): Promise<OrderRow | undefined> {
  return orderInserts(part?.of ?? NO_PART)(db, { ...order, ...(part ? { part } : {}) });
}

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

/**
 * An order with what issuing its card needs: the design's validity (null when it is gone), the business's name.
 * With `wanted` (`rowsByKey`), the orders of those keys; otherwise from the table.
 */
function orderForSale(db: DbOrTx, wanted?: ReturnType<typeof rowsByKey>) {
  const select = db.select({
    order: orders,
    validityMonths: giftCards.validityMonths,
    businessName: accounts.name,
  });
  return (wanted ? select.from(wanted.keys).innerJoinLateral(wanted.rows, sql`true`) : select.from(orders))
    .innerJoin(accounts, eq(accounts.id, orders.businessId))
    .leftJoin(giftCards, eq(giftCards.id, orders.giftCardId));
}

/** Built once (issue 14): every payment confirmation on the locked path locks its order. */
const orderByReferenceLocked = builtOnce((db) =>
  orderForSale(db)
    .where(eq(orders.reference, sql.placeholder('reference')))
    .for('update', { of: orders })
    .prepare('order_by_reference_locked'),
);

/**
 * The order a payment confirmation names, locked (only the order's row) so concurrent deliveries of it are
 * handled one at a time, with what issuing its card needs (`orderForSale`).
 */
export async function lockOrderByReference(tx: DbOrTx, reference: string) {
  const [row] = await orderByReferenceLocked(tx).execute({ reference });
  return row;
}

/** Orders named by payment confirmations, unlocked (`orderForSale`), built once. */
const ordersByReference = builtOnce((db) =>
  orderForSale(db, rowsByKey(db, orders, orders.reference, 'references')).prepare('orders_by_reference'),
);

export type OrderForSale = NonNullable<Awaited<ReturnType<typeof lockOrderByReference>>>;

/**
 * The order a payment confirmation names, unlocked (undefined when there is none); see `ordersByReference`.
 * The confirmations' reads waiting while others run go in one statement (ADR 027).
 */
export const findOrderForSale = batchedLookup<string, OrderForSale>(async (db, references) => {
  const rows = await ordersByReference(db).execute({ references });
  return new Map(rows.map((row) => [row.order.reference, row]));
});

/**
 * Sales completed in one statement (issue 14: one round trip where four were; many orders at once, ADR 027):
 * the orders become paid, the other rooms' parts (`ctes`: the sales' journal entries, the issued cards, the
 * news) are written with them, and `addToSoldCounts` (the catalogue's part, reading the CTE `counted` of
 * gift_card_id and sales) adds them to their cards' sold counts, one update per card for all its sales in
 * the statement. `written` is an SQL condition (e.g. whether every journal entry found its accounts); it is
 * the answer of a sale on a locked order. On orders read without a lock (`asRead`), an order is made paid
 * only if it is still pending, and when one is not, or `written` is false, the statement refuses as a whole
 * (SQLSTATE ZG001, `refuse_unless`): nothing is written, and the caller completes those sales on the locked
 * path. No two statements of one instance share an order (the batcher's keys); two instances' statements
 * that wait on each other's orders or cards in a circle are refused by PostgreSQL as a deadlock, and the
 * batcher tries each of their sales alone.
 *
 * The parts are fixed SQL with placeholders, so the statement is built once, under `name`, and each run only
 * fills in the sales' values (the parts' `values`, given by their rooms) and the orders paid.
 */
export function salesStatement(
  name: string,
  parts: { ctes: SQL[]; written: SQL; addToSoldCounts: SQL; asRead: boolean },
): (
  db: DbOrTx,
  sales: { orderId: string; paidAt: Date }[],
  values: Record<string, unknown>,
) => Promise<boolean> {
  const { ctes, written, addToSoldCounts, asRead } = parts;
  const statement = sqlBuiltOnce(name, () => {
    const answer = asRead
      ? sql`refuse_unless((SELECT count(*) FROM paid) = cardinality(${sql.placeholder('paidIds')}::uuid[])
                          AND ${written},
                          'a sale is no longer as it was read, or its ledger accounts are missing')`
      : written;
    return sql`
      WITH ${sql.join(ctes, sql`, `)},
      paid AS (${paidOrders(asRead)}),
      counted AS (SELECT gift_card_id, count(*)::int AS sales FROM paid GROUP BY gift_card_id),
      added AS (${addToSoldCounts})
      SELECT ${answer} AS written`;
  });
  return async (db, sales, values) => {
    const result = await statement(db).execute({ ...values, ...paidOrderValues(sales) });
    return (result.rows[0] as { written: boolean }).written;
  };
}

/**
 * The orders of `paidOrderValues`' sales made paid (RETURNING id, gift_card_id); read without a lock, only
 * while still pending. Each order is found by its own look-up in `orders_pkey` (a lateral subquery that
 * OFFSET 0 keeps the planner from turning into a join), then its row by the address that look-up found (a TID
 * scan): joined to the sales' ids, the statement's plan, made while `orders` was small and not yet analyzed,
 * scanned the whole table on every sale statement as it grew. A row updated since the look-up is checked
 * again as it is now (PostgreSQL re-reads it), and the status keeps an order already paid from being paid
 * twice.
 */
export function paidOrders(asRead: boolean): SQL {
  return sql`
      UPDATE ${orders} o SET status = 'paid', paid_at = found.paid_at, failure_reason = NULL
        FROM (SELECT row_of.ctid AS row_address, p.paid_at
                FROM unnest(${sql.placeholder('paidIds')}::uuid[],
                            ${sql.placeholder('paidAts')}::timestamptz[]) AS p(id, paid_at)
                CROSS JOIN LATERAL (SELECT ctid FROM ${orders} WHERE id = p.id OFFSET 0) AS row_of) AS found
       WHERE o.ctid = found.row_address ${asRead ? sql`AND o.status = 'pending'` : sql``}
      RETURNING o.id, o.gift_card_id`;
}

/** `paidOrders`' values: each sale's order and the time it was paid. */
export function paidOrderValues(sales: { orderId: string; paidAt: Date }[]): Record<string, string[]> {
  return {
    paidIds: sales.map((s) => s.orderId),
    paidAts: sales.map((s) => s.paidAt.toISOString()),
  };
}

/** Whether an error is `salesStatement`'s refusal of sales no longer as read. */
export function isSaleRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
  return cause?.code === 'ZG001';
}

export async function updateOrder(
  db: DbOrTx,
  id: string,
  values: Partial<typeof orders.$inferInsert>,
): Promise<void> {
  await db.update(orders).set(values).where(eq(orders.id, id));
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
