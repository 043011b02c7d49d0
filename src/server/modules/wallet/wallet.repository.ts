import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bankAccounts, transactionPins } from '../../db/schema/wallet';

export type BankAccountRow = typeof bankAccounts.$inferSelect;

export async function hasPin(db: DbOrTx, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transactionPins.accountId })
    .from(transactionPins)
    .where(eq(transactionPins.accountId, accountId));
  return Boolean(row);
}

export async function findDefaultBankAccount(
  db: DbOrTx,
  businessId: string,
): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.businessId, businessId),
        eq(bankAccounts.isDefault, true),
        isNull(bankAccounts.removedAt),
      ),
    );
  return row;
}

/** What a withdrawal's answer and news show of its bank account. */
export type BankAccountShown = Pick<
  BankAccountRow,
  'id' | 'bankCode' | 'bankName' | 'accountNumber' | 'accountName' | 'isDefault' | 'createdAt'
>;

export function toBankAccount(row: BankAccountShown) {
  return {
    id: row.id,
    bankCode: row.bankCode,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}
