import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** Statuses in which a card's balance can still be spent (or will be, once a freeze, block or gift ends). */
const LIVE = sql`status IN ('active', 'frozen', 'blocked', 'gift_pending')
  AND balance > 0 AND (expires_at IS NULL OR expires_at > now())`;

export interface CardTotals {
  count: number;
  total: bigint;
}

function totals(row: { count: string | number; total: string | number | null } | undefined): CardTotals {
  return { count: Number(row?.count ?? 0), total: BigInt(row?.total ?? 0) };
}

/** The holder's cards that still hold money and are not in a gift. */
export async function ownedCardsWithBalance(db: DbOrTx, ownerId: string): Promise<CardTotals> {
  const result = await db.execute<{ count: string; total: string | null }>(sql`
    SELECT count(*) AS count, sum(balance) AS total FROM purchased_cards
    WHERE owner_id = ${ownerId} AND ${LIVE} AND status <> 'gift_pending'`);
  return totals(result.rows[0]);
}

/** Gifts the account sent that are still on their way (scheduled or waiting for the recipient). */
export async function openGiftsSent(db: DbOrTx, senderId: string): Promise<CardTotals> {
  const result = await db.execute<{ count: string; total: string | null }>(sql`
    SELECT count(*) AS count, sum(c.balance) AS total FROM gifts g
    JOIN purchased_cards c ON c.id = g.purchased_card_id
    WHERE g.sender_id = ${senderId} AND g.status IN ('scheduled', 'pending')`);
  return totals(result.rows[0]);
}

/** Cards the business sold that its customers can still spend: its promises. */
export async function soldCardsWithBalance(db: DbOrTx, businessId: string): Promise<CardTotals> {
  const result = await db.execute<{ count: string; total: string | null }>(sql`
    SELECT count(*) AS count, sum(balance) AS total FROM purchased_cards
    WHERE business_id = ${businessId} AND ${LIVE}`);
  return totals(result.rows[0]);
}

/** The holder's spendable cards, each row locked (the deletion voids them one by one). */
export async function lockOwnedCardsWithBalance(
  tx: DbOrTx,
  ownerId: string,
): Promise<{ id: string; balance: bigint }[]> {
  const result = await tx.execute<{ id: string; balance: string }>(sql`
    SELECT id, balance FROM purchased_cards
    WHERE owner_id = ${ownerId} AND ${LIVE} AND status <> 'gift_pending'
    ORDER BY id FOR UPDATE`);
  return result.rows.map((r) => ({ id: r.id, balance: BigInt(r.balance) }));
}
