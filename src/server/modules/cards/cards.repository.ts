import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { giftCards } from '../../db/schema/catalogue';
import { cardActivities, purchasedCards } from '../../db/schema/cards';

export async function insertPurchasedCard(db: DbOrTx, row: typeof purchasedCards.$inferInsert) {
  const [created] = await db.insert(purchasedCards).values(row).returning();
  return created!;
}

export async function insertActivity(db: DbOrTx, row: typeof cardActivities.$inferInsert): Promise<void> {
  await db.insert(cardActivities).values(row);
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
