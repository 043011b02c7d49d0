import { aliasedTable, and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { giftCards } from '../../db/schema/catalogue';
import { cardActivities, purchasedCards } from '../../db/schema/cards';
import { ledgerAccounts } from '../../db/schema/wallet';

/**
 * The business's figures, each a sum over the rows the money rules write: a card's `issue` activity (what it
 * was sold for), the business's `redeem` and `reverse` activities (what was spent at its till), and the
 * balance of its sold cards (which triggers keep equal to the sum of each card's activities).
 */

const cursorTime = (column: unknown) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The start of today and of this month in `timeZone`, as instants. */
const dayStart = (timeZone: string) =>
  sql`(date_trunc('day', now() AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone})`;
const monthStart = (timeZone: string) =>
  sql`(date_trunc('month', now() AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone})`;

/** Total balance on the business's sold cards that can still be spent, in one currency. */
export async function outstandingBalance(db: DbOrTx, businessId: string, currency: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${purchasedCards.balance}), 0)` })
    .from(purchasedCards)
    .where(
      and(
        eq(purchasedCards.businessId, businessId),
        eq(purchasedCards.currency, currency),
        sql`${purchasedCards.status} IN ('active', 'frozen', 'gift_pending')`,
        sql`(${purchasedCards.expiresAt} IS NULL OR ${purchasedCards.expiresAt} > now())`,
      ),
    );
  return BigInt(row?.total ?? '0');
}

/**
 * The business's wallet balance, read here because cards may not call the wallet room: the same
 * `ledger_balance()` of the wallet account as the wallet's own balance (a test holds the two equal).
 */
export async function walletAccountBalance(
  db: DbOrTx,
  businessId: string,
  currency: string,
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`ledger_balance(${ledgerAccounts.id})` })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, 'business_wallet'),
        eq(ledgerAccounts.ownerId, businessId),
        eq(ledgerAccounts.currency, currency),
      ),
    );
  return BigInt(row?.total ?? '0');
}

/** Value sold today and this month: the cards' initial values, by when they were sold (ADR 039). */
export async function soldTotals(db: DbOrTx, businessId: string, currency: string, timeZone: string) {
  const [row] = await db
    .select({
      today: sql<string>`coalesce(sum(${purchasedCards.initialValue}) FILTER (WHERE ${purchasedCards.createdAt} >= ${dayStart(timeZone)}), 0)`,
      month: sql<string>`coalesce(sum(${purchasedCards.initialValue}), 0)`,
    })
    .from(purchasedCards)
    .where(
      and(
        eq(purchasedCards.businessId, businessId),
        eq(purchasedCards.currency, currency),
        sql`${purchasedCards.createdAt} >= ${monthStart(timeZone)}`,
      ),
    );
  return { today: BigInt(row?.today ?? '0'), month: BigInt(row?.month ?? '0') };
}

/** Redeemed at the business's till today and this month, less the reversals made in the same period. */
export async function redeemedTotals(db: DbOrTx, businessId: string, currency: string, timeZone: string) {
  const [row] = await db
    .select({
      today: sql<string>`coalesce(-sum(${cardActivities.amount}) FILTER (WHERE ${cardActivities.createdAt} >= ${dayStart(timeZone)}), 0)`,
      month: sql<string>`coalesce(-sum(${cardActivities.amount}), 0)`,
    })
    .from(cardActivities)
    .innerJoin(purchasedCards, eq(purchasedCards.id, cardActivities.purchasedCardId))
    .where(
      and(
        eq(cardActivities.actorId, businessId),
        sql`${cardActivities.kind} IN ('redeem', 'reverse')`,
        sql`${cardActivities.createdAt} >= ${monthStart(timeZone)}`,
        eq(purchasedCards.businessId, businessId),
        eq(purchasedCards.currency, currency),
      ),
    );
  return { today: BigInt(row?.today ?? '0'), month: BigInt(row?.month ?? '0') };
}

/** Sold and redeemed (net of reversals) per day for the last `days` days, every day, oldest first. */
export async function dailyTotals(
  db: DbOrTx,
  businessId: string,
  currency: string,
  timeZone: string,
  days: number,
): Promise<{ date: string; sold: bigint; redeemed: bigint }[]> {
  const result = await db.execute<{ date: string; sold: string; redeemed: string }>(sql`
    WITH span AS (
      SELECT (now() AT TIME ZONE ${timeZone})::date - (${days}::int - 1) AS first_day
    ),
    start AS (SELECT (first_day::timestamp AT TIME ZONE ${timeZone}) AS at FROM span),
    sold AS (
      SELECT (c.created_at AT TIME ZONE ${timeZone})::date AS day, sum(c.initial_value) AS total
      FROM ${purchasedCards} c
      WHERE c.business_id = ${businessId} AND c.currency = ${currency}
        AND c.created_at >= (SELECT at FROM start)
      GROUP BY 1
    ),
    redeemed AS (
      SELECT (a.created_at AT TIME ZONE ${timeZone})::date AS day, -sum(a.amount) AS total
      FROM ${cardActivities} a
      JOIN ${purchasedCards} c ON c.id = a.purchased_card_id
      WHERE a.actor_id = ${businessId} AND a.kind IN ('redeem', 'reverse')
        AND c.business_id = ${businessId} AND c.currency = ${currency}
        AND a.created_at >= (SELECT at FROM start)
      GROUP BY 1
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           coalesce(sold.total, 0)::text AS sold,
           coalesce(redeemed.total, 0)::text AS redeemed
    FROM (SELECT generate_series(first_day, first_day + (${days}::int - 1), interval '1 day')::date AS day FROM span) d
    LEFT JOIN sold ON sold.day = d.day
    LEFT JOIN redeemed ON redeemed.day = d.day
    ORDER BY d.day
  `);
  return result.rows.map((r) => ({ date: r.date, sold: BigInt(r.sold), redeemed: BigInt(r.redeemed) }));
}

const reversal = aliasedTable(cardActivities, 'reversal');

export interface RedemptionFilter {
  after?: { time: string; id: string };
  from?: string;
  before?: string;
}

export interface RedemptionListRow {
  id: string;
  createdAt: Date;
  cursorTime: string;
  purchasedCardId: string;
  amount: bigint;
  balanceAfter: bigint;
  reference: string | null;
  currency: string;
  codeLast4: string;
  designName: string;
  reversedAt: Date | null;
}

/** The business's redemptions at its till, newest first, with the reversal of each (if any). */
export async function listRedemptions(
  db: DbOrTx,
  businessId: string,
  filter: RedemptionFilter,
  limit: number,
): Promise<RedemptionListRow[]> {
  return db
    .select({
      id: cardActivities.id,
      createdAt: cardActivities.createdAt,
      cursorTime: cursorTime(cardActivities.createdAt),
      purchasedCardId: cardActivities.purchasedCardId,
      amount: cardActivities.amount,
      balanceAfter: cardActivities.balanceAfter,
      reference: cardActivities.reference,
      currency: purchasedCards.currency,
      codeLast4: purchasedCards.codeLast4,
      designName: giftCards.uniqueId,
      reversedAt: reversal.createdAt,
    })
    .from(cardActivities)
    .innerJoin(purchasedCards, eq(purchasedCards.id, cardActivities.purchasedCardId))
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .leftJoin(reversal, eq(reversal.reversesId, cardActivities.id))
    .where(
      and(
        eq(cardActivities.actorId, businessId),
        eq(cardActivities.kind, 'redeem'),
        eq(purchasedCards.businessId, businessId),
        filter.from ? sql`${cardActivities.createdAt} >= ${filter.from}::timestamptz` : undefined,
        filter.before ? sql`${cardActivities.createdAt} < ${filter.before}::timestamptz` : undefined,
        filter.after
          ? sql`(${cardActivities.createdAt}, ${cardActivities.id}) < (${filter.after.time}::timestamptz, ${filter.after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${cardActivities.createdAt} DESC NULLS LAST`, sql`${cardActivities.id} DESC NULLS LAST`)
    .limit(limit);
}
