import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accountTokens } from '../../db/schema/accounts';

/**
 * Password-reset links (account_tokens with purpose 'password_reset'). Only the SHA-256 of a token is
 * stored; a link is live while it is unused and unexpired.
 */
const reset = eq(accountTokens.purpose, 'password_reset');
const live = and(isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, sql`now()`));

/** Ends the account's live reset links (a new one is being issued, or the password changed). */
export async function endResetTokens(db: DbOrTx, accountId: string): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.accountId, accountId), reset, live));
}

export async function insertResetToken(
  db: DbOrTx,
  row: { accountId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(accountTokens).values({ ...row, purpose: 'password_reset' });
}

/**
 * Uses a live reset link: one conditional UPDATE, so of any number of requests with the same token exactly
 * one gets its account back; the others (and unknown, expired or used tokens) get nothing.
 */
export async function useResetToken(db: DbOrTx, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.tokenHash, tokenHash), reset, live))
    .returning({ accountId: accountTokens.accountId });
  return row?.accountId;
}

/** Whether a reset link is live now (a cheap look before the password is hashed; using it decides). */
export async function isLiveResetToken(db: DbOrTx, tokenHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), reset, live));
  return Boolean(row);
}
