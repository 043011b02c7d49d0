import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { gifts, purchasedCards } from '../../db/schema/cards';
import { orders } from '../../db/schema/orders';

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
