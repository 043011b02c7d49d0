import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export async function withdrawalsInFlight(
  db: DbOrTx,
  businessId: string,
): Promise<{ count: number; total: bigint }> {
  const result = await db.execute<{ count: string; total: string | null }>(sql`
    SELECT count(*) AS count, sum(amount) AS total FROM withdrawals
    WHERE business_id = ${businessId} AND status IN ('requested', 'processing')`);
  const row = result.rows[0];
  return { count: Number(row?.count ?? 0), total: BigInt(row?.total ?? 0) };
}

export async function deletePin(tx: DbOrTx, businessId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM transaction_pins WHERE account_id = ${businessId}`);
}

/**
 * Bank accounts no withdrawal names are deleted; those a withdrawal paid to are removed (kept for that
 * withdrawal's history, never used again).
 */
export async function removeBankAccounts(tx: DbOrTx, businessId: string): Promise<void> {
  await tx.execute(sql`
    DELETE FROM bank_accounts b WHERE b.business_id = ${businessId}
      AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.bank_account_id = b.id)`);
  await tx.execute(sql`
    UPDATE bank_accounts SET is_default = false, removed_at = coalesce(removed_at, now())
    WHERE business_id = ${businessId}`);
}
