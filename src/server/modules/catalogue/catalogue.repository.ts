import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { builtOnce, rowsByKey, type DbOrTx } from '../../db/client';
import { batchedLookup } from '../../lib/batch';
import { accounts } from '../../db/schema/accounts';
import { giftCardSales, giftCards } from '../../db/schema/catalogue';

export type GiftCardRow = typeof giftCards.$inferSelect;
export interface GiftCardWithBusiness extends GiftCardRow {
  businessName: string;
  businessLogoKey: string | null;
  /** Full-precision (microsecond) creation time in UTC, for keyset cursors. */
  cursorTime: string;
}

const selection = {
  id: giftCards.id,
  businessId: giftCards.businessId,
  uniqueId: giftCards.uniqueId,
  amount: giftCards.amount,
  currency: giftCards.currency,
  colour: giftCards.colour,
  onSale: giftCards.onSale,
  soldCount: sql<number>`(${giftCards.soldCount} + coalesce((SELECT sum(s.sales) FROM ${giftCardSales} s
                                                             WHERE s.gift_card_id = ${giftCards.id}), 0))::int`,
  validityMonths: giftCards.validityMonths,
  createdAt: giftCards.createdAt,
  updatedAt: giftCards.updatedAt,
  businessName: accounts.name,
  businessLogoKey: accounts.logoKey,
  cursorTime: sql<string>`to_char(${giftCards.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export async function insertGiftCard(db: DbOrTx, row: typeof giftCards.$inferInsert): Promise<GiftCardRow> {
  const [created] = await db.insert(giftCards).values(row).returning();
  return created!;
}

/**
 * Designs by id, built once (issue 14: every order reads its design); the reads asked for while others run
 * go in one statement (ADR 027), one look-up per id (`rowsByKey`).
 */
const giftCardsById = builtOnce((db) => {
  const wanted = rowsByKey(db, giftCards, giftCards.id, 'ids');
  return db
    .select(selection)
    .from(wanted.keys)
    .innerJoinLateral(wanted.rows, sql`true`)
    .innerJoin(accounts, eq(accounts.id, giftCards.businessId))
    .prepare('gift_cards_by_id');
});

/** A design with its business (undefined when there is none). */
export const findGiftCard = batchedLookup<string, GiftCardWithBusiness>(
  async (db, ids) => new Map((await giftCardsById(db).execute({ ids })).map((row) => [row.id, row])),
);

export interface PageQuery {
  limit: number;
  after?: { time: string; id: string };
  businessId?: string;
  /** Business ids whose names match a search; an empty list matches nothing. */
  businessIds?: string[];
  onSaleOnly: boolean;
  orderBy?: 'newest' | 'best-selling';
}

/** Newest first with a (created_at, id) keyset: pages neither skip nor repeat while cards are added. */
export async function listGiftCards(db: DbOrTx, query: PageQuery): Promise<GiftCardWithBusiness[]> {
  const conditions: SQL[] = [];
  // A literal predicate (not `= $1`) so PostgreSQL can use the partial catalogue indexes (WHERE on_sale).
  if (query.onSaleOnly) conditions.push(sql`${giftCards.onSale}`);
  if (query.businessId) conditions.push(eq(giftCards.businessId, query.businessId));
  if (query.businessIds) {
    if (query.businessIds.length === 0) return [];
    conditions.push(inArray(giftCards.businessId, query.businessIds));
  }
  if (query.after) {
    conditions.push(
      sql`(${giftCards.createdAt}, ${giftCards.id}) < (${query.after.time}::timestamptz, ${query.after.id}::uuid)`,
    );
  }
  // NULLS LAST as in the indexes: PostgreSQL only walks an index whose null ordering matches the query's.
  const newest = [sql`${giftCards.createdAt} DESC NULLS LAST`, sql`${giftCards.id} DESC NULLS LAST`];
  // Best-selling by the sales folded so far (a second or so behind, ADR 031), which the row holds; each card on
  // the page still shows its exact count.
  const order = query.orderBy === 'best-selling' ? [desc(giftCards.soldCount), ...newest] : newest;
  return db
    .select(selection)
    .from(giftCards)
    .innerJoin(accounts, eq(accounts.id, giftCards.businessId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(...order)
    .limit(query.limit);
}

export async function setOnSale(db: DbOrTx, id: string, onSale: boolean): Promise<void> {
  await db
    .update(giftCards)
    .set({ onSale, updatedAt: sql`now()` })
    .where(eq(giftCards.id, id));
}

export async function countGiftCards(db: DbOrTx, businessId: string, onSaleOnly: boolean): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(giftCards)
    .where(and(eq(giftCards.businessId, businessId), onSaleOnly ? sql`${giftCards.onSale}` : undefined));
  return row?.n ?? 0;
}

/** Businesses whose name contains the search text (case-insensitive), at most `limit` of them. */
export async function findBusinessIdsByName(db: DbOrTx, search: string, limit: number): Promise<string[]> {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.role, 'business'), sql`${accounts.name} ILIKE ${pattern}`))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Sales added to their gift cards' sold counts, as a CTE body of another room's statement: the cards named by
 * its CTE `counted` (gift_card_id, sales), one row each in `gift_card_sales` (ADR 031), which no other sale
 * waits for, until `foldSoldCounts` moves them into the cards' rows.
 */
export function soldCountsAddedCte(): SQL {
  return sql`
    INSERT INTO ${giftCardSales} (gift_card_id, sales) SELECT gift_card_id, sales FROM counted
    RETURNING gift_card_id`;
}

/**
 * Moves the sales not yet folded into their cards' sold counts (`fold_sold_counts()`, migration 0025), when
 * there are any; answers how many cards changed (0 while another instance folds).
 */
export async function foldSoldCounts(db: DbOrTx): Promise<number> {
  const result = await db.execute<{ cards: number }>(sql`
    SELECT CASE WHEN EXISTS (SELECT 1 FROM ${giftCardSales}) THEN fold_sold_counts() ELSE 0 END AS cards`);
  return result.rows[0]!.cards;
}
