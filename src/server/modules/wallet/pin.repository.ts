import { and, eq, sql } from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { transactionPins } from '../../db/schema/wallet';

export type PinRow = typeof transactionPins.$inferSelect;

/** Built once (issue 14): every withdrawal reads the PIN. */
const pinOf = builtOnce((db) =>
  db
    .select()
    .from(transactionPins)
    .where(eq(transactionPins.accountId, sql.placeholder('accountId')))
    .prepare('pin_of_account'),
);

export async function findPin(db: DbOrTx, accountId: string): Promise<PinRow | undefined> {
  const [row] = await pinOf(db).execute({ accountId });
  return row;
}

/** The PIN's row, locked for the rest of the transaction, so concurrent wrong tries are all counted. */
export async function lockPin(tx: DbOrTx, accountId: string): Promise<PinRow | undefined> {
  const [row] = await tx
    .select()
    .from(transactionPins)
    .where(eq(transactionPins.accountId, accountId))
    .for('update');
  return row;
}

/** Answers false when the account already has a PIN (nothing is written then). */
export async function insertPin(db: DbOrTx, accountId: string, pinHash: string): Promise<boolean> {
  const inserted = await db
    .insert(transactionPins)
    .values({ accountId, pinHash })
    .onConflictDoNothing({ target: transactionPins.accountId })
    .returning({ accountId: transactionPins.accountId });
  return inserted.length > 0;
}

export async function updatePin(
  db: DbOrTx,
  accountId: string,
  values: Partial<
    Pick<
      PinRow,
      'pinHash' | 'failedAttempts' | 'lockedUntil' | 'recentLocks' | 'resetRequiredAt' | 'updatedAt'
    >
  >,
): Promise<void> {
  await db.update(transactionPins).set(values).where(eq(transactionPins.accountId, accountId));
}

/**
 * Replaces the PIN's hash only while it is still `oldHash` (an argon2id hash being moved to today's form), so
 * it never undoes a PIN changed in the meantime. Answers whether it replaced it.
 */
export async function replacePinHash(
  db: DbOrTx,
  accountId: string,
  oldHash: string,
  newHash: string,
): Promise<boolean> {
  const updated = await db
    .update(transactionPins)
    .set({ pinHash: newHash, updatedAt: new Date() })
    .where(and(eq(transactionPins.accountId, accountId), eq(transactionPins.pinHash, oldHash)))
    .returning({ accountId: transactionPins.accountId });
  return updated.length > 0;
}

/** The account's password hash, for a PIN change that proves itself with the password (read-only). */
export async function findPasswordHash(db: DbOrTx, accountId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.passwordHash;
}
