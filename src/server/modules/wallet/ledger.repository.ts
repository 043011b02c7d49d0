import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerAccounts, postings } from './wallet.schema';

export type LedgerAccountKind = (typeof ledgerAccounts.$inferSelect)['kind'];

export async function ensureOwnedLedgerAccount(
  db: DbOrTx,
  kind: LedgerAccountKind,
  ownerId: string,
  currency: string,
): Promise<string> {
  await db
    .insert(ledgerAccounts)
    .values({ kind, ownerId, currency })
    .onConflictDoNothing({
      target: [ledgerAccounts.kind, ledgerAccounts.ownerId, ledgerAccounts.currency],
      where: sql`${ledgerAccounts.ownerId} IS NOT NULL`,
    });
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, kind),
        eq(ledgerAccounts.ownerId, ownerId),
        eq(ledgerAccounts.currency, currency),
      ),
    );
  return row!.id;
}

/** Sum of the postings of an owner's ledger account of a kind: the only source of a balance. */
export async function ownedAccountBalance(
  db: DbOrTx,
  kind: LedgerAccountKind,
  ownerId: string,
  currency: string,
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${postings.amount}), 0)` })
    .from(postings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.ledgerAccountId))
    .where(
      and(
        eq(ledgerAccounts.kind, kind),
        eq(ledgerAccounts.ownerId, ownerId),
        eq(ledgerAccounts.currency, currency),
      ),
    );
  return BigInt(row?.total ?? '0');
}
