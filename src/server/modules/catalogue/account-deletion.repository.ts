import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** Every design of the business leaves the catalogue (cards already bought stay valid). */
export async function stopSellingAll(tx: DbOrTx, businessId: string): Promise<void> {
  await tx.execute(sql`
    UPDATE gift_cards SET on_sale = false, updated_at = now() WHERE business_id = ${businessId} AND on_sale`);
}
