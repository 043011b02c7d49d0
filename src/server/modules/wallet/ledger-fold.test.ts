import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onFreshCopy, planOf } from '../../../../tests/fixtures/plans';
import { createTestApp, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';
import type { DbOrTx } from '../../db/client';
import {
  ensurePlatformAccount,
  foldLedgerBalances,
  ledgerFoldStatement,
  postEntry,
} from './ledger.repository';
import { openWallet } from './wallet.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * Accounts whose balance is not the sum of their postings, or whose folded sum is not the sum of the postings
 * before the fold's point: both read in one snapshot, so a fold committing meanwhile cannot skew them.
 */
async function mismatches(): Promise<string[]> {
  const result = await t.database.db.execute<{ id: string }>(sql`
    SELECT a.id FROM ledger_accounts a, ledger_fold f
     WHERE ledger_balance(a.id)
           <> (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.ledger_account_id = a.id)
        OR coalesce((SELECT b.balance FROM ledger_balances b WHERE b.ledger_account_id = a.id), 0)
           <> (SELECT coalesce(sum(p.amount), 0) FROM postings p
                WHERE p.ledger_account_id = a.id AND p.xact < f.through)`);
  return result.rows.map((row) => row.id);
}

const through = async () =>
  BigInt(
    (await t.database.db.execute<{ through: string }>(sql`SELECT through::text AS through FROM ledger_fold`))
      .rows[0]!.through,
  );

const balance = async (account: string) =>
  BigInt(
    (await t.database.db.execute<{ b: string }>(sql`SELECT ledger_balance(${account}::uuid)::text AS b`))
      .rows[0]!.b,
  );

async function walletAndClearing(db: DbOrTx, businessId: string) {
  return {
    wallet: await openWallet(db, businessId, 'NGN'),
    clearing: await ensurePlatformAccount(db, 'payment_clearing', 'NGN'),
  };
}

/** A balanced entry: `amount` from payment clearing into the wallet. */
function fund(db: DbOrTx, accounts: { wallet: string; clearing: string }, amount: bigint, reference: string) {
  return postEntry(db, {
    kind: 'sale',
    reference,
    currency: 'NGN',
    postings: [
      { ledgerAccountId: accounts.clearing, amount: -amount },
      { ledgerAccountId: accounts.wallet, amount },
    ],
  });
}

/** Folds until the fold has passed `xid` (other tests' short transactions may hold it back a moment). */
async function foldPast(xid: bigint): Promise<void> {
  for (let i = 0; i < 100 && (await through()) <= xid; i += 1) {
    await foldLedgerBalances(t.database.db);
    if ((await through()) <= xid) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await through()).toBeGreaterThan(xid);
}

describe('ledger balances folded in the background (ADR 022)', () => {
  it('a balance is the sum of its postings, before and after folds, for every account', async () => {
    const business = await fundedBusiness(t, 1_000_000n);
    expect(await mismatches()).toEqual([]);
    await foldLedgerBalances(t.database.db);
    expect(await mismatches()).toEqual([]);
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 250_000, pin: TEST_PIN },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await mismatches()).toEqual([]);
    await foldLedgerBalances(t.database.db);
    expect(await mismatches()).toEqual([]);
    const wallet = await business.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json().balance.amount).toBe(750_000);
  });

  it('never folds past a transaction still open: its postings count once, from its commit; a rolled-back one never', async () => {
    const business = await fundedBusiness(t, 100_000n, { pin: false, bank: false });
    const accounts = await walletAndClearing(t.database.db, business.id);
    const before = await balance(accounts.wallet);
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      const entry = `fold-open:${business.id}`;
      await client.query(
        `WITH e AS (INSERT INTO journal_entries (kind, reference) VALUES ('sale', $1) RETURNING id)
         INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
         SELECT e.id, x.account, x.amount, 'NGN' FROM e,
                (VALUES ($2::uuid, -5000::bigint), ($3::uuid, 5000::bigint)) AS x(account, amount)`,
        [entry, accounts.clearing, accounts.wallet],
      );
      const open = BigInt(
        (await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid,
      );
      await foldLedgerBalances(t.database.db);
      await foldLedgerBalances(t.database.db);
      expect(await through()).toBeLessThanOrEqual(open);
      expect(await balance(accounts.wallet)).toBe(before);
      await client.query('COMMIT');
      expect(await balance(accounts.wallet)).toBe(before + 5000n);
      await foldPast(open);
      expect(await balance(accounts.wallet)).toBe(before + 5000n);
      expect(await mismatches()).toEqual([]);

      await client.query('BEGIN');
      await client.query(
        `WITH e AS (INSERT INTO journal_entries (kind, reference) VALUES ('sale', $1) RETURNING id)
         INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
         SELECT e.id, x.account, x.amount, 'NGN' FROM e,
                (VALUES ($2::uuid, -7000::bigint), ($3::uuid, 7000::bigint)) AS x(account, amount)`,
        [`${entry}:rolled-back`, accounts.clearing, accounts.wallet],
      );
      const rolledBack = BigInt(
        (await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid,
      );
      await client.query('ROLLBACK');
      // A fold runs only when a posting came since the last (nothing else does): one after the rolled-back.
      const after = await t.database.db.transaction(async (tx) => {
        await fund(tx, accounts, 1n, `${entry}:after`);
        return BigInt(
          (await tx.execute<{ xid: string }>(sql`SELECT pg_current_xact_id()::text AS xid`)).rows[0]!.xid,
        );
      });
      expect(after).toBeGreaterThan(rolledBack);
      await foldPast(after);
      expect(await balance(accounts.wallet)).toBe(before + 5000n + 1n);
      expect(await mismatches()).toEqual([]);
    } finally {
      client.release();
    }
  });

  it('with no posting since the last fold, a fold writes nothing (an idle instance takes no transaction)', async () => {
    // Other test files share the database and may write postings meanwhile: the probe and this check read
    // one snapshot, so each try either saw nothing new (and must have written nothing) or is tried again.
    let idle = 0;
    for (let i = 0; i < 150 && idle < 3; i += 1) {
      await foldLedgerBalances(t.database.db);
      const seen = await t.database.db.transaction(
        async (tx) => {
          const pending = await tx.execute<{ pending: boolean }>(sql`
            SELECT EXISTS (SELECT 1 FROM postings WHERE xact >= (SELECT through FROM ledger_fold)) AS pending`);
          const accounts = await foldLedgerBalances(tx);
          const xid = await tx.execute<{ xid: string | null }>(
            sql`SELECT pg_current_xact_id_if_assigned()::text AS xid`,
          );
          return { pending: pending.rows[0]!.pending, accounts, xid: xid.rows[0]!.xid };
        },
        { isolationLevel: 'repeatable read' },
      );
      if (!seen.pending) {
        idle += 1;
        expect(seen).toEqual({ pending: false, accounts: 0, xid: null });
      } else {
        // another file's postings came meanwhile, or its open transaction holds the fold back: a moment
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(idle).toBe(3);
  });

  it('folds from several instances at once, with money moving meanwhile: every posting counted once', async () => {
    const business = await fundedBusiness(t, 10_000n, { pin: false, bank: false });
    const accounts = await walletAndClearing(t.database.db, business.id);
    const start = await through();
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => foldLedgerBalances(t.database.db)),
      ...Array.from({ length: 20 }, (_, i) =>
        t.database.db.transaction((tx) =>
          fund(tx, accounts, BigInt(100 + i), `fold-race:${business.id}:${i}`),
        ),
      ),
      ...Array.from({ length: 6 }, () => foldLedgerBalances(t.database.db)),
    ]);
    expect(results).toHaveLength(32);
    expect(await through()).toBeGreaterThanOrEqual(start);
    // 10,000 + (100 + 101 + … + 119)
    expect(await balance(accounts.wallet)).toBe(10_000n + 2190n);
    expect(await mismatches()).toEqual([]);
  });

  it('a wallet read from its folded balance still never goes below zero: 20 withdrawals at once from ₦10,000', async () => {
    const business = await fundedBusiness(t, 1_000_000n);
    const funded = BigInt(
      (
        await t.database.db.execute<{ xid: string }>(sql`
          SELECT max(p.xact)::text AS xid FROM postings p JOIN ledger_accounts a ON a.id = p.ledger_account_id
           WHERE a.owner_id = ${business.id}::uuid`)
      ).rows[0]!.xid,
    );
    await foldPast(funded);
    const folded = await t.database.db.execute<{ balance: string }>(sql`
      SELECT b.balance::text AS balance FROM ledger_balances b JOIN ledger_accounts a ON a.id = b.ledger_account_id
       WHERE a.owner_id = ${business.id}::uuid AND a.kind = 'business_wallet'`);
    expect(folded.rows[0]?.balance).toBe('1000000');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        business.request({
          method: 'POST',
          url: '/api/v1/withdrawals',
          payload: { amount: 100_000, pin: TEST_PIN },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(10);
    const wallet = await business.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json().balance.amount).toBe(0);
    expect(await mismatches()).toEqual([]);
  });
});

describe("the fold's probe (issue 14)", () => {
  it('reads the newest posting from the end of its index, not the whole table, when nothing is new', async () => {
    // 20,000 postings, all folded, on a table the planner has statistics for: the idle case of a big ledger.
    const fill = `INSERT INTO postings (entry_id, ledger_account_id, amount, currency, xact)
                  SELECT gen_random_uuid(), gen_random_uuid(), 100, 'NGN', '3'::xid8
                    FROM generate_series(1, 20000)`;
    await onFreshCopy('postings', fill, async (tx) => {
      await tx.execute(sql`ANALYZE postings`);
      const lines = await planOf(tx, ledgerFoldStatement());
      expect(lines).toMatch(/Index Only Scan Backward using postings_xact_idx on postings/);
      expect(lines).not.toMatch(/Seq Scan on postings/);
    });
  });
});
