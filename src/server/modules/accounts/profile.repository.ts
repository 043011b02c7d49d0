import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts, accountTokens, sessions } from '../../db/schema/accounts';
import type { AccountRow } from './accounts.repository';
import { forgetCachedSessions } from './session-cache';

/** The live (not deleted) account, its row locked until the transaction ends. */
export async function lockLiveAccount(tx: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .for('update');
  return row;
}

export async function updateProfileFields(
  db: DbOrTx,
  id: string,
  fields: Partial<Pick<AccountRow, 'name' | 'phone' | 'username'>>,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .returning();
  forgetCachedSessions();
  return row;
}

export async function emailTakenByAnother(db: DbOrTx, email: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = lower(${email})`, ne(accounts.id, id)));
  return row !== undefined;
}

export async function businessNameTakenByAnother(db: DbOrTx, name: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(eq(accounts.role, 'business'), sql`lower(${accounts.name}) = lower(${name})`, ne(accounts.id, id)),
    );
  return row !== undefined;
}

/** A newer request ends the older ones: only the latest link can change the address. */
export async function endEmailChangeTokens(tx: DbOrTx, accountId: string): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.accountId, accountId),
        eq(accountTokens.purpose, 'email_change'),
        isNull(accountTokens.usedAt),
      ),
    );
}

export async function insertEmailChangeToken(
  tx: DbOrTx,
  row: { accountId: string; tokenHash: string; newEmail: string; expiresAt: Date },
): Promise<void> {
  await tx.insert(accountTokens).values({ ...row, purpose: 'email_change' });
}

/**
 * Uses the link once: the conditional update lets exactly one of several parallel confirmations through;
 * the others find it used.
 */
export async function claimEmailChangeToken(
  tx: DbOrTx,
  tokenHash: string,
): Promise<{ accountId: string; newEmail: string } | undefined> {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, 'email_change'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ accountId: accountTokens.accountId, newEmail: accountTokens.newEmail });
  return row ? { accountId: row.accountId, newEmail: row.newEmail! } : undefined;
}

export async function updateEmail(tx: DbOrTx, id: string, email: string): Promise<void> {
  await tx
    .update(accounts)
    .set({ email, updatedAt: sql`now()` })
    .where(eq(accounts.id, id));
  forgetCachedSessions();
}

/** The deleted account keeps its row (money records point at it) with nothing personal left in it. */
export async function anonymiseAccount(
  tx: DbOrTx,
  id: string,
  values: Pick<AccountRow, 'name' | 'email' | 'phone' | 'username' | 'passwordHash'>,
): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...values, logoKey: null, deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(accounts.id, id));
  forgetCachedSessions();
}

export async function deleteAccountTokens(tx: DbOrTx, accountId: string): Promise<void> {
  await tx.delete(accountTokens).where(eq(accountTokens.accountId, accountId));
}

export async function revokeAllSessions(tx: DbOrTx, accountId: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
  forgetCachedSessions();
}
