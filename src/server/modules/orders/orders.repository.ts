import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../accounts/accounts.schema';
import { cardActivities, purchasedCards } from '../cards/cards.schema';
import { giftCards } from '../catalogue/catalogue.schema';
import { orders } from './orders.schema';

export type OrderRow = typeof orders.$inferSelect;

export async function insertOrder(db: DbOrTx, row: typeof orders.$inferInsert): Promise<OrderRow> {
  const [created] = await db.insert(orders).values(row).returning();
  return created!;
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
    .select({ order: orders, businessName: accounts.name, purchasedCardId: purchasedCards.id })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.businessId))
    .leftJoin(purchasedCards, eq(purchasedCards.orderId, orders.id))
    .where(eq(orders.id, id));
  return row;
}

/** The order a confirmation is about, locked so concurrent deliveries of it are handled one at a time. */
export async function lockOrderByReference(tx: DbOrTx, reference: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.reference, reference)).for('update');
  return row;
}

export async function updateOrder(
  db: DbOrTx,
  id: string,
  values: Partial<typeof orders.$inferInsert>,
): Promise<void> {
  await db.update(orders).set(values).where(eq(orders.id, id));
}

export async function insertPurchasedCard(db: DbOrTx, row: typeof purchasedCards.$inferInsert) {
  const [created] = await db.insert(purchasedCards).values(row).returning();
  return created!;
}

export async function insertActivity(db: DbOrTx, row: typeof cardActivities.$inferInsert): Promise<void> {
  await db.insert(cardActivities).values(row);
}

export async function incrementSoldCount(db: DbOrTx, giftCardId: string): Promise<void> {
  await db
    .update(giftCards)
    .set({ soldCount: sql`${giftCards.soldCount} + 1` })
    .where(eq(giftCards.id, giftCardId));
}

const cardSelection = {
  card: purchasedCards,
  uniqueId: giftCards.uniqueId,
  colour: giftCards.colour,
  businessName: accounts.name,
  businessLogoKey: accounts.logoKey,
  cursorTime: sql<string>`to_char(${purchasedCards.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type PurchasedCardRow = Awaited<ReturnType<typeof findPurchasedCard>> & object;

export async function findPurchasedCard(db: DbOrTx, id: string) {
  const [row] = await db
    .select(cardSelection)
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(accounts, eq(accounts.id, purchasedCards.businessId))
    .where(eq(purchasedCards.id, id));
  return row;
}

export async function listPurchasedCards(
  db: DbOrTx,
  ownerId: string,
  limit: number,
  after?: { time: string; id: string },
) {
  return db
    .select(cardSelection)
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(accounts, eq(accounts.id, purchasedCards.businessId))
    .where(
      and(
        eq(purchasedCards.ownerId, ownerId),
        after
          ? sql`(${purchasedCards.createdAt}, ${purchasedCards.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${purchasedCards.createdAt} DESC NULLS LAST`, sql`${purchasedCards.id} DESC NULLS LAST`)
    .limit(limit);
}

export async function listActivities(db: DbOrTx, purchasedCardId: string) {
  return db
    .select()
    .from(cardActivities)
    .where(eq(cardActivities.purchasedCardId, purchasedCardId))
    .orderBy(asc(cardActivities.createdAt), asc(cardActivities.id));
}
