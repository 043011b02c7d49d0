import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
import { batchedPerPool } from '../../lib/batch';
import { bankAccounts, withdrawals } from '../../db/schema/wallet';
import type { BankAccountShown } from './wallet.repository';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** Built once (issue 14): the payout job reads every withdrawal it sends. */
const withdrawalById = builtOnce((db) =>
  db
    .select({ withdrawal: withdrawals, bank: bankAccounts })
    .from(withdrawals)
    .innerJoin(bankAccounts, eq(bankAccounts.id, withdrawals.bankAccountId))
    .where(eq(withdrawals.id, sql.placeholder('id')))
    .prepare('withdrawal_by_id'),
);

export async function findWithdrawal(db: DbOrTx, id: string) {
  const [row] = await withdrawalById(db).execute({ id });
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

/**
 * Up to `limit` withdrawals the payout job should look at now (the longest due first), each leased for 30 s
 * so one worker handles it at a time; answered as leased (attempts counted, next attempt in 30 s), in no
 * particular order. One statement (issue 14: it was a select and then one update per row, in a
 * transaction): the due rows are taken with SKIP LOCKED, so two workers never lease the same one.
 */
export async function leaseDueWithdrawals(db: DbOrTx, limit: number): Promise<WithdrawalRow[]> {
  return dueWithdrawalsLeased(db).execute({ limit });
}

const dueWithdrawalsLeased = builtOnce((db) =>
  db
    .update(withdrawals)
    .set({ nextAttemptAt: sql`now() + interval '30 seconds'`, attempts: sql`${withdrawals.attempts} + 1` })
    .where(
      inArray(
        withdrawals.id,
        db
          .select({ id: withdrawals.id })
          .from(withdrawals)
          .where(
            and(
              inArray(withdrawals.status, ['requested', 'processing']),
              lte(withdrawals.nextAttemptAt, sql`now()`),
            ),
          )
          .orderBy(withdrawals.nextAttemptAt)
          .limit(sql.placeholder('limit'))
          .for('update', { skipLocked: true }),
      ),
    )
    .returning()
    .prepare('due_withdrawals_leased'),
);

export type WithdrawalCallOutcome =
  'written' | 'no_accounts' | 'bank_gone' | 'same' | 'replay' | 'insufficient';

/**
 * The withdrawal's transaction in one call (0015_withdrawal_in_one_call.sql, ADR 017): under the wallet's
 * lock, the bank hold, the old client's same-request check, the balance, the withdrawal, its ledger entry
 * and its notification; the outcome says which of them decided.
 */
export async function callRequestWithdrawal(
  db: DbOrTx,
  call: {
    businessId: string;
    currency: string;
    bankAccountId: string;
    amount: bigint;
    reference: string;
    idempotencyKey: string | null;
    fingerprint: string;
    sameWithinSeconds: number;
    news: string;
  },
): Promise<{
  outcome: WithdrawalCallOutcome;
  id: string | null;
  balance: bigint | null;
  createdAt: Date | null;
}> {
  const result = await db.execute<{
    outcome: WithdrawalCallOutcome;
    withdrawal_id: string | null;
    balance: string | null;
    created_at: string | null;
  }>(sql`
    SELECT * FROM request_withdrawal(${call.businessId}::uuid, ${call.currency}::text, ${call.bankAccountId}::uuid,
      ${call.amount}::bigint, ${call.reference}::text, ${call.idempotencyKey}::text, ${call.fingerprint}::text,
      ${Math.trunc(call.sameWithinSeconds)}::int, ${call.news}::jsonb)`);
  const row = result.rows[0]!;
  return callOutcome({ ...row, id: row.withdrawal_id, createdAt: row.created_at });
}

/** A withdrawal call's outcome with its values as the service reads them (the driver gives text). */
function callOutcome<O extends string>(row: {
  outcome: O;
  id: string | null;
  balance: string | null;
  createdAt: string | null;
}) {
  return {
    outcome: row.outcome,
    id: row.id,
    balance: row.balance === null ? null : BigInt(row.balance),
    createdAt: row.createdAt === null ? null : new Date(row.createdAt),
  };
}

/**
 * The batch's withdrawals in one call of `request_withdrawals_checked` (ADR 041,
 * 0031_withdrawals_as_one_set.sql), built once: the common withdrawal's one statement, for one business or for
 * many at once (ADR 027: the withdrawals waiting while others run go together, see
 * `callRequestWithdrawalChecked`). The function locks the wallets in the order of the businesses' ids, so two
 * such statements never wait on each other in a circle, and writes the batch's rows as one set; each answer
 * carries its withdrawal's place in the batch (`n`), and they come back in that order.
 */
const checkedCalls = builtOnce((db) => {
  const p = (name: string) => sql.placeholder(name);
  return db
    .select({
      outcome: sql<WithdrawalCallOutcome | 'check'>`w.outcome`,
      id: sql<string | null>`w.withdrawal_id`,
      balance: sql<string | null>`w.balance`,
      createdAt: sql<string | null>`w.created_at`,
      bankId: sql<string | null>`w.bank_id`,
      bankCode: sql<string>`w.bank_code`,
      bankName: sql<string>`w.bank_name`,
      accountNumber: sql<string>`w.account_number`,
      accountName: sql<string>`w.account_name`,
      isDefault: sql<boolean>`w.is_default`,
      bankCreatedAt: sql<string>`w.bank_created_at`,
    })
    .from(
      sql`request_withdrawals_checked(${p('businessIds')}::uuid[], ${p('currencies')}::text[],
            ${p('bankAccountIds')}::uuid[], ${p('amounts')}::bigint[], ${p('references')}::text[],
            ${p('idempotencyKeys')}::text[], ${p('fingerprints')}::text[], ${p('sameWithinSeconds')}::int[],
            ${p('pinHashes')}::text[], ${p('news')}::jsonb[]) AS w`,
    )
    .orderBy(sql`w.n`)
    .prepare('request_withdrawals_checked');
});

/** One withdrawal as `callRequestWithdrawalChecked` takes it. */
export interface CheckedCall {
  businessId: string;
  currency: string;
  bankAccountId: string | null;
  amount: bigint;
  reference: string;
  idempotencyKey: string | null;
  fingerprint: string;
  sameWithinSeconds: number;
  pinHash: string;
  news: string;
}

/** What `callRequestWithdrawalChecked` answers. */
export interface CheckedOutcome {
  outcome: WithdrawalCallOutcome | 'check';
  id: string | null;
  balance: bigint | null;
  createdAt: Date | null;
  bank: BankAccountShown | null;
}

/** Many businesses' withdrawals in one statement (`checkedCalls`), answered in their order. */
export async function callRequestWithdrawalsChecked(
  db: DbOrTx,
  calls: CheckedCall[],
): Promise<CheckedOutcome[]> {
  const rows = await checkedCalls(db).execute({
    businessIds: calls.map((c) => c.businessId),
    currencies: calls.map((c) => c.currency),
    bankAccountIds: calls.map((c) => c.bankAccountId),
    amounts: calls.map((c) => String(c.amount)),
    references: calls.map((c) => c.reference),
    idempotencyKeys: calls.map((c) => c.idempotencyKey),
    fingerprints: calls.map((c) => c.fingerprint),
    sameWithinSeconds: calls.map((c) => Math.trunc(c.sameWithinSeconds)),
    pinHashes: calls.map((c) => c.pinHash),
    news: calls.map((c) => c.news),
  });
  return rows.map((r) => ({
    ...callOutcome(r),
    bank:
      r.bankId === null
        ? null
        : {
            id: r.bankId,
            bankCode: r.bankCode,
            bankName: r.bankName,
            accountNumber: r.accountNumber,
            accountName: r.accountName,
            isDefault: r.isDefault,
            createdAt: new Date(r.bankCreatedAt),
          },
  }));
}

/**
 * The withdrawal with its checks in one call (0021_withdrawal_with_its_checks.sql): `replay` with no bank
 * when the key was used before; `check`, with the live bank account it read (named, or the default) or none,
 * when the app must decide (no such account, a PIN that is not plainly right); otherwise request_withdrawal's
 * outcome, with the bank account it used. `news` holds `{bank}` where the account goes. On the pool it
 * waits for a free run and shares it with the other businesses waiting (ADR 027); inside a transaction it
 * runs at once, alone.
 */
export const callRequestWithdrawalChecked = batchedPerPool<CheckedCall, CheckedOutcome>((db) => ({
  // One business at a time: each call locks its wallet, and its key is the business's own.
  keys: (call) => [call.businessId],
  run: (calls) => callRequestWithdrawalsChecked(db, calls),
}));
