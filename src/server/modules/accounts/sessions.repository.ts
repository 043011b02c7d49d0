import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts, sessions } from '../../db/schema/accounts';
import { forgetCachedSessions, type LiveSession } from './session-cache';

export type { LiveSession };

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: DbOrTx, row: typeof sessions.$inferInsert): Promise<SessionRow> {
  const [created] = await db.insert(sessions).values(row).returning();
  return created!;
}

export async function findLiveSessionByTokenHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<LiveSession | undefined> {
  const [row] = await db
    .select({ session: sessions, account: accounts })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
    );
  return row;
}

export async function revokeSession(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  forgetCachedSessions();
}

/**
 * Marks the session seen now, unless that was done in the last minute: the condition is in the UPDATE, so
 * parallel requests write the row at most once a minute between them.
 */
export async function touchSession(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, sql`now() - interval '1 minute'`)));
}

/** The account's live sessions, most recently seen first. */
export async function listLiveSessions(db: DbOrTx, accountId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
    )
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt), desc(sessions.id));
}

/** Ends one live session, only if it is this account's; answers whether one was ended. */
export async function revokeSessionOf(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, id),
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: sessions.id });
  forgetCachedSessions();
  return rows.length > 0;
}

/** Ends every live session of the account, except `keepId` when given; answers how many were ended. */
export async function revokeSessionsOf(db: DbOrTx, accountId: string, keepId?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        keepId ? ne(sessions.id, keepId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  forgetCachedSessions();
  return rows.length;
}
