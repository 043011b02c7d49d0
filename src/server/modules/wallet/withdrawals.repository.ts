import { and, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bankAccounts, withdrawals } from '../../db/schema/wallet';
import { balanceOf } from './ledger.repository';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/**
 * Writes a withdrawal; with an Idempotency-Key this business already used, writes nothing and answers
 * undefined (a parallel request with the same key waits for the first one here, then writes nothing).
 */
export async function insertWithdrawal(
  db: DbOrTx,
  row: typeof withdrawals.$inferInsert,
): Promise<WithdrawalRow | undefined> {
  const [created] = await db
    .insert(withdrawals)
    .values(row)
    .onConflictDoNothing({
      target: [withdrawals.businessId, withdrawals.idempotencyKey],
      where: sql`${withdrawals.idempotencyKey} IS NOT NULL`,
    })
    .returning();
  return created;
}

export async function findWithdrawalByKey(db: DbOrTx, businessId: string, key: string) {
  const [row] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.businessId, businessId), eq(withdrawals.idempotencyKey, key)));
  return row;
}

export async function findWithdrawal(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ withdrawal: withdrawals, bank: bankAccounts })
    .from(withdrawals)
    .innerJoin(bankAccounts, eq(bankAccounts.id, withdrawals.bankAccountId))
    .where(eq(withdrawals.id, id));
  return row;
}

export async function lockWithdrawal(tx: DbOrTx, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
  return row;
}

export async function findWithdrawalByReference(db: DbOrTx, reference: string) {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.reference, reference));
  return row;
}

export async function updateWithdrawal(
  db: DbOrTx,
  id: string,
  values: Partial<typeof withdrawals.$inferInsert>,
) {
  await db
    .update(withdrawals)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(withdrawals.id, id));
}

export async function listWithdrawals(
  db: DbOrTx,
  businessId: string,
  limit: number,
  after?: { time: string; id: string },
) {
  return db
    .select({
      withdrawal: withdrawals,
      bank: bankAccounts,
      cursorTime: sql<string>`to_char(${withdrawals.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(withdrawals)
    .innerJoin(bankAccounts, eq(bankAccounts.id, withdrawals.bankAccountId))
    .where(
      and(
        eq(withdrawals.businessId, businessId),
        after
          ? sql`(${withdrawals.createdAt}, ${withdrawals.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${withdrawals.createdAt} DESC NULLS LAST`, sql`${withdrawals.id} DESC NULLS LAST`)
    .limit(limit);
}

export async function findLiveBankAccount(db: DbOrTx, businessId: string, id: string) {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(
      and(eq(bankAccounts.id, id), eq(bankAccounts.businessId, businessId), isNull(bankAccounts.removedAt)),
    );
  return row;
}

/** Withdrawals the payout job should look at now; each is leased for 30 s so one worker handles it at a time. */
export async function leaseDueWithdrawals(tx: DbOrTx, limit: number) {
  const rows = await tx
    .select()
    .from(withdrawals)
    .where(
      and(
        inArray(withdrawals.status, ['requested', 'processing']),
        lte(withdrawals.nextAttemptAt, sql`now()`),
      ),
    )
    .orderBy(withdrawals.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  for (const row of rows) {
    await tx
      .update(withdrawals)
      .set({ nextAttemptAt: sql`now() + interval '30 seconds'`, attempts: sql`${withdrawals.attempts} + 1` })
      .where(eq(withdrawals.id, row.id));
  }
  return rows;
}

/**
 * Under the wallet's lock, in one statement: holds the bank account against a concurrent removal (which
 * checks for withdrawals in flight) and sums the wallet's postings.
 */
export async function shareBankAndSumWallet(
  tx: DbOrTx,
  bankAccountId: string,
  walletId: string,
): Promise<{ bankLive: boolean; balance: bigint }> {
  const result = await tx.execute<{ bank_live: boolean; balance: string }>(sql`
    SELECT EXISTS (SELECT 1 FROM ${bankAccounts}
                    WHERE id = ${bankAccountId} AND removed_at IS NULL FOR SHARE) AS bank_live,
           ${balanceOf(walletId)}::text AS balance`);
  const row = result.rows[0]!;
  return { bankLive: row.bank_live, balance: BigInt(row.balance) };
}

/**
 * A withdrawal without an Idempotency-Key of the same amount to the same account made in the last
 * `seconds`: read under the wallet's lock, so of two identical requests at once the second sees the first.
 */
export async function findRecentIdenticalWithdrawal(
  tx: DbOrTx,
  businessId: string,
  bankAccountId: string,
  amount: bigint,
  seconds: number,
): Promise<WithdrawalRow | undefined> {
  const [row] = await tx
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.businessId, businessId),
        eq(withdrawals.bankAccountId, bankAccountId),
        eq(withdrawals.amount, amount),
        isNull(withdrawals.idempotencyKey),
        gt(withdrawals.createdAt, sql`now() - make_interval(secs => ${seconds})`),
      ),
    )
    .orderBy(desc(withdrawals.createdAt))
    .limit(1);
  return row;
}
