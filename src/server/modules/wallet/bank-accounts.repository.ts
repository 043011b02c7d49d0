import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { bankAccounts, withdrawals } from '../../db/schema/wallet';
import type { BankAccountRow } from './wallet.repository';

export type { BankAccountRow };
export type NewBankAccount = typeof bankAccounts.$inferInsert;

/** Withdrawal states in which money may still go to the account. */
export const IN_FLIGHT_WITHDRAWALS = ['requested', 'processing'] as const;

/**
 * Serialises changes to one business's bank accounts (add, set default, remove), so "the first account
 * becomes the default" and the one-default index never race: the business's own account row is the lock.
 */
export async function lockBusiness(tx: DbOrTx, businessId: string): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, businessId)).for('update');
}

/** The business's live (not removed) accounts: the default first, then newest first. */
export async function listLive(db: DbOrTx, businessId: string): Promise<BankAccountRow[]> {
  return db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.businessId, businessId), isNull(bankAccounts.removedAt)))
    .orderBy(desc(bankAccounts.isDefault), desc(bankAccounts.createdAt), desc(bankAccounts.id));
}

/** One live account of this business, locked for the transaction when `lock` is set. */
export async function findLive(
  db: DbOrTx,
  businessId: string,
  id: string,
  lock = false,
): Promise<BankAccountRow | undefined> {
  const query = db
    .select()
    .from(bankAccounts)
    .where(
      and(eq(bankAccounts.id, id), eq(bankAccounts.businessId, businessId), isNull(bankAccounts.removedAt)),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findLiveByNumber(
  db: DbOrTx,
  businessId: string,
  bankCode: string,
  accountNumber: string,
): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.businessId, businessId),
        eq(bankAccounts.bankCode, bankCode),
        eq(bankAccounts.accountNumber, accountNumber),
        isNull(bankAccounts.removedAt),
      ),
    );
  return row;
}

export async function hasDefault(db: DbOrTx, businessId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.businessId, businessId),
        eq(bankAccounts.isDefault, true),
        isNull(bankAccounts.removedAt),
      ),
    );
  return Boolean(row);
}

export async function insertBankAccount(db: DbOrTx, values: NewBankAccount): Promise<BankAccountRow> {
  const [row] = await db.insert(bankAccounts).values(values).returning();
  return row!;
}

/** Clears the old default and sets the new one (call inside a transaction; the index allows one default). */
export async function makeDefault(tx: DbOrTx, businessId: string, id: string): Promise<BankAccountRow> {
  await tx
    .update(bankAccounts)
    .set({ isDefault: false })
    .where(
      and(
        eq(bankAccounts.businessId, businessId),
        eq(bankAccounts.isDefault, true),
        isNull(bankAccounts.removedAt),
      ),
    );
  const [row] = await tx
    .update(bankAccounts)
    .set({ isDefault: true })
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.businessId, businessId)))
    .returning();
  return row!;
}

export async function hasWithdrawalInFlight(db: DbOrTx, bankAccountId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.bankAccountId, bankAccountId),
        inArray(withdrawals.status, [...IN_FLIGHT_WITHDRAWALS]),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Soft-removes: the row stays for withdrawals that reference it; a removed account is never the default. */
export async function softRemove(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(bankAccounts)
    .set({ removedAt: new Date(), isDefault: false })
    .where(eq(bankAccounts.id, id));
}
