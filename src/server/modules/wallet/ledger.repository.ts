import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { journalEntries, ledgerAccounts, ledgerFold, postings } from '../../db/schema/wallet';

export type LedgerAccountKind = (typeof ledgerAccounts.$inferSelect)['kind'];

/** The condition for an owner's ledger account of a kind and currency (unique). */
const ownedBy = (kind: LedgerAccountKind, ownerId: string, currency: string) =>
  and(
    eq(ledgerAccounts.kind, kind),
    eq(ledgerAccounts.ownerId, ownerId),
    eq(ledgerAccounts.currency, currency),
  );

/**
 * A ledger account's id, created on first use. Accounts exist after their first use, so the look-up comes
 * first (one round trip); a creation that races another one's does nothing, and the look-up then finds it.
 */
async function findOrCreate(
  find: () => Promise<string | undefined>,
  create: () => Promise<unknown>,
): Promise<string> {
  const found = await find();
  if (found) return found;
  await create();
  return (await find())!;
}

/**
 * A ledger account's balance, as a SQL expression: the one definition of a ledger balance. It is the sum of the
 * account's postings, read as the folded sum plus the postings since the fold (`ledger_balance()`, ADR 022).
 */
function balanceOf(ledgerAccountId: string | SQL): SQL<string> {
  return sql<string>`ledger_balance(${ledgerAccountId}::uuid)`;
}

/**
 * The fold's statement: `fold_ledger_balances()` only when a posting was written since the last fold,
 * otherwise the fold's row lock alone would write a transaction each time, and an idle instance writes
 * nothing. The probe is the newest posting's transaction, one read at the end of `postings_xact_idx`: as
 * `EXISTS (… WHERE xact >= through)` the planner, which expects a third of any table to match a `>=` it
 * cannot see, scanned the whole table for its first match, every second (2,000,000 postings: 150 ms each
 * time; twenty-first session).
 */
export function ledgerFoldStatement(): SQL {
  return sql`
    SELECT CASE WHEN (SELECT max(xact) FROM ${postings}) >= (SELECT through FROM ${ledgerFold})
                THEN fold_ledger_balances() ELSE 0 END AS accounts`;
}

/**
 * Adds the postings of every transaction that has ended to the folded balances (ADR 022); answers how many
 * accounts changed. Any number of instances may run it at once: they take turns on the fold's row.
 */
export async function foldLedgerBalances(db: DbOrTx): Promise<number> {
  const result = await db.execute<{ accounts: number }>(ledgerFoldStatement());
  return result.rows[0]!.accounts;
}

/** The id of an owner's ledger account of a kind, created on first use; `lock` takes its row lock too. */
export async function ensureOwnedLedgerAccount(
  db: DbOrTx,
  kind: LedgerAccountKind,
  ownerId: string,
  currency: string,
  lock = false,
): Promise<string> {
  return findOrCreate(
    async () => {
      const query = db
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(ownedBy(kind, ownerId, currency));
      const [row] = lock ? await query.for('update') : await query;
      return row?.id;
    },
    () =>
      db
        .insert(ledgerAccounts)
        .values({ kind, ownerId, currency })
        .onConflictDoNothing({
          target: [ledgerAccounts.kind, ledgerAccounts.ownerId, ledgerAccounts.currency],
          where: sql`${ledgerAccounts.ownerId} IS NOT NULL`,
        }),
  );
}

/** Sum of the postings of an owner's ledger account of a kind: the only source of a balance. */
export async function ownedAccountBalance(
  db: DbOrTx,
  kind: LedgerAccountKind,
  ownerId: string,
  currency: string,
): Promise<bigint> {
  const [row] = await db
    // Qualified by hand: in a one-table select drizzle writes a column bare, which the subquery would take as its own.
    .select({ total: balanceOf(sql`${ledgerAccounts}."id"`) })
    .from(ledgerAccounts)
    .where(ownedBy(kind, ownerId, currency));
  return BigInt(row?.total ?? '0');
}

/** A platform-owned ledger account (payment clearing, revenue, payouts), created on first use. */
export async function ensurePlatformAccount(
  db: DbOrTx,
  kind: LedgerAccountKind,
  currency: string,
): Promise<string> {
  return findOrCreate(
    async () => {
      const [row] = await db
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(
          and(
            eq(ledgerAccounts.kind, kind),
            eq(ledgerAccounts.currency, currency),
            isNull(ledgerAccounts.ownerId),
          ),
        );
      return row?.id;
    },
    () =>
      db
        .insert(ledgerAccounts)
        .values({ kind, currency })
        .onConflictDoNothing({
          target: [ledgerAccounts.kind, ledgerAccounts.currency],
          where: sql`${ledgerAccounts.ownerId} IS NULL`,
        }),
  );
}

export interface Posting {
  ledgerAccountId: string;
  /** Signed minor units. */
  amount: bigint;
}

/**
 * Writes one journal entry. The postings must sum to zero (checked here, and by the database at commit);
 * `reference` is unique, so the same movement cannot be written twice.
 */
export async function postEntry(
  tx: DbOrTx,
  entry: { kind: string; reference: string; currency: string; postings: Posting[] },
): Promise<string> {
  const lines = entry.postings.filter((p) => p.amount !== 0n);
  const total = lines.reduce((sum, p) => sum + p.amount, 0n);
  if (total !== 0n || lines.length < 2) throw new Error(`unbalanced journal entry ${entry.reference}`);
  // One round trip: the entry and its postings in one statement (the balance check still runs at commit).
  const result = await tx.execute<{ entry_id: string }>(sql`
    WITH entry AS (
      INSERT INTO ${journalEntries} (kind, reference) VALUES (${entry.kind}, ${entry.reference}) RETURNING id)
    INSERT INTO ${postings} (entry_id, ledger_account_id, amount, currency)
    SELECT entry.id, line.account, line.amount, ${entry.currency}
      FROM entry, unnest(${`{${lines.map((p) => p.ledgerAccountId).join(',')}}`}::uuid[],
                         ${`{${lines.map((p) => p.amount.toString()).join(',')}}`}::bigint[]) AS line(account, amount)
    RETURNING entry_id`);
  return result.rows[0]!.entry_id;
}

/**
 * Sales' journal entries as CTEs of the statement that completes them (`sale`, `sale_account`, `sale_line`,
 * `sale_entry`, `sale_postings`), one entry per sale: payment clearing → the business's wallet less the fee
 * → platform revenue, the three accounts looked up by kind inside it. A sale whose accounts do not all exist
 * yet (the first sale of a business or currency) gets no entry, and `written` (an SQL condition: every sale
 * got its entry) is false: the caller creates them and posts in the same transaction, or completes that sale
 * on its own (ADR 027). The values go as arrays, one element per sale, from placeholders that
 * `saleEntryValues` fills (issue 14: one statement for many sales, built once, its text the same for any
 * number of them).
 */
export const saleEntryCtes: { ctes: SQL; written: SQL } = {
  ctes: sql`
    sale AS (
      SELECT * FROM unnest(${sql.placeholder('saleReferences')}::text[],
                           ${sql.placeholder('saleBusinessIds')}::uuid[],
                           ${sql.placeholder('saleCurrencies')}::text[],
                           ${sql.placeholder('saleAmounts')}::bigint[],
                           ${sql.placeholder('saleFees')}::bigint[])
               AS s(reference, business_id, currency, amount, fee)),
    sale_account AS (
      SELECT s.reference, a.id, a.kind::text AS kind
        FROM sale s JOIN ${ledgerAccounts} a
          ON a.currency = s.currency AND a.owner_id IS NULL AND a.kind IN ('payment_clearing', 'platform_revenue')
      UNION ALL
      SELECT s.reference, a.id, a.kind::text AS kind
        FROM sale s JOIN ${ledgerAccounts} a
          ON a.currency = s.currency AND a.owner_id = s.business_id AND a.kind = 'business_wallet'),
    sale_line AS (
      SELECT sa.reference, sa.id, s.currency,
             CASE sa.kind WHEN 'payment_clearing' THEN -s.amount
                          WHEN 'business_wallet' THEN s.amount - s.fee
                          ELSE s.fee END AS amount
        FROM sale_account sa JOIN sale s ON s.reference = sa.reference),
    sale_entry AS (
      INSERT INTO ${journalEntries} (kind, reference)
      SELECT 'sale', reference FROM sale_account GROUP BY reference HAVING count(*) = 3
      RETURNING id, reference),
    sale_postings AS (
      INSERT INTO ${postings} (entry_id, ledger_account_id, amount, currency)
      SELECT e.id, l.id, l.amount, l.currency
        FROM sale_entry e JOIN sale_line l ON l.reference = e.reference
       WHERE l.amount <> 0
      RETURNING entry_id)`,
  written: sql`((SELECT count(*) FROM sale_entry) = (SELECT count(*) FROM sale))`,
};

/** `saleEntryCtes`' values for these sales (their references differ: one order each). */
export function saleEntryValues(
  sales: { reference: string; businessId: string; currency: string; amount: bigint; fee: bigint }[],
): Record<string, unknown[]> {
  return {
    saleReferences: sales.map((s) => s.reference),
    saleBusinessIds: sales.map((s) => s.businessId),
    saleCurrencies: sales.map((s) => s.currency),
    saleAmounts: sales.map((s) => s.amount.toString()),
    saleFees: sales.map((s) => s.fee.toString()),
  };
}

/** The postings of the journal entry with this reference (empty when there is none). */
export async function findEntryPostings(db: DbOrTx, reference: string) {
  return db
    .select({
      ledgerAccountId: postings.ledgerAccountId,
      amount: postings.amount,
      currency: postings.currency,
    })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .where(eq(journalEntries.reference, reference));
}
