import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
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

/** The call of `request_withdrawal_checked`, built once: the common withdrawal's one statement. */
const checkedCall = builtOnce((db) =>
  db
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
      sql`request_withdrawal_checked(${sql.placeholder('businessId')}::uuid, ${sql.placeholder('currency')}::text,
        ${sql.placeholder('bankAccountId')}::uuid, ${sql.placeholder('amount')}::bigint,
        ${sql.placeholder('reference')}::text, ${sql.placeholder('idempotencyKey')}::text,
        ${sql.placeholder('fingerprint')}::text, ${sql.placeholder('sameWithinSeconds')}::int,
        ${sql.placeholder('pinHash')}::text, ${sql.placeholder('news')}::jsonb) AS w`,
    )
    .prepare('request_withdrawal_checked'),
);

/**
 * The withdrawal with its checks in one call (0021_withdrawal_with_its_checks.sql): `replay` with no bank
 * when the key was used before; `check`, with the live bank account it read (named, or the default) or none,
 * when the app must decide (no such account, a PIN that is not plainly right); otherwise request_withdrawal's
 * outcome, with the bank account it used. `news` holds `{bank}` where the account goes.
 */
export async function callRequestWithdrawalChecked(
  db: DbOrTx,
  call: {
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
  },
): Promise<{
  outcome: WithdrawalCallOutcome | 'check';
  id: string | null;
  balance: bigint | null;
  createdAt: Date | null;
  bank: BankAccountShown | null;
}> {
  const [row] = await checkedCall(db).execute({
    ...call,
    amount: String(call.amount),
    sameWithinSeconds: Math.trunc(call.sameWithinSeconds),
  });
  const r = row!;
  return {
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
  };
}
