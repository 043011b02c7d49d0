import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { forgetCachedSessions } from './session-cache';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;

export async function insertAccount(db: DbOrTx, row: NewAccountRow): Promise<AccountRow> {
  const [created] = await db.insert(accounts).values(row).returning();
  return created!;
}

export async function findAccountById(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function findAccountByEmail(db: DbOrTx, email: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email})`);
  return row;
}

export async function findUserByUsername(db: DbOrTx, username: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.role, 'user'), sql`lower(${accounts.username}) = lower(${username})`));
  return row;
}

/** Which unique fields of a prospective account are taken already, so the answer can name them all. */
export async function findTakenFields(
  db: DbOrTx,
  fields: { email: string; username?: string; businessName?: string },
): Promise<{ email: boolean; username: boolean; businessName: boolean }> {
  const result = await db.execute<{ email: boolean; username: boolean; business_name: boolean }>(sql`
    SELECT
      EXISTS (SELECT 1 FROM accounts WHERE lower(email) = lower(${fields.email})) AS email,
      EXISTS (SELECT 1 FROM accounts WHERE ${fields.username ?? null}::text IS NOT NULL
              AND lower(username) = lower(${fields.username ?? null}::text)) AS username,
      EXISTS (SELECT 1 FROM accounts WHERE role = 'business' AND ${fields.businessName ?? null}::text IS NOT NULL
              AND lower(name) = lower(${fields.businessName ?? null}::text)) AS business_name`);
  const row = result.rows[0]!;
  return { email: row.email, username: row.username, businessName: row.business_name };
}

/** Points a business at its new logo file; answers the row as it now is. */
export async function updateLogoKey(
  db: DbOrTx,
  id: string,
  logoKey: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ logoKey, updatedAt: sql`now()` })
    .where(eq(accounts.id, id))
    .returning();
  forgetCachedSessions();
  return row;
}

/**
 * Stores a new password hash. With `expectedHash`, only while the stored hash is still that one (the
 * password that was just checked), so two changes racing with the same old password make one change.
 */
export async function updatePasswordHash(
  db: DbOrTx,
  id: string,
  passwordHash: string,
  expectedHash?: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, id), expectedHash ? eq(accounts.passwordHash, expectedHash) : undefined))
    .returning();
  forgetCachedSessions();
  return row;
}

/** Locks the account's row for the rest of the transaction (one password change or reset at a time). */
export async function lockAccount(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
}
