import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';
import { createSandboxPayouts } from './payouts/sandbox-payouts';
import { sqlBuiltOnce, type DbOrTx } from '../../db/client';
import { recordFirstSale, saleEntries, saleEntryValuesOf } from './wallet.service';
import { requestWithdrawal } from './withdrawals.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The sale's postings by account kind, and the accounts of that currency that exist. */
async function postingsOf(reference: string) {
  const rows = await t.database.db.execute<{ kind: string; amount: string }>(sql`
    SELECT la.kind::text AS kind, p.amount::text AS amount
      FROM postings p JOIN journal_entries e ON e.id = p.entry_id
      JOIN ledger_accounts la ON la.id = p.ledger_account_id
     WHERE e.reference = ${reference} ORDER BY la.kind`);
  return rows.rows;
}

type Sale = Parameters<typeof recordFirstSale>[1];

const saleEntry = sqlBuiltOnce(
  'first_use_test_sale_entry',
  () => sql`WITH ${saleEntries.ctes} SELECT ${saleEntries.written} AS written`,
);

/**
 * A sale's entry as a confirmation writes it: in its statement (here alone), or made first when it found no
 * accounts.
 */
async function recordSale(tx: DbOrTx, sale: Sale): Promise<void> {
  const result = await saleEntry(tx).execute(saleEntryValuesOf([sale]));
  if (!(result.rows[0] as { written: boolean }).written) await recordFirstSale(tx, sale);
}

/**
 * Issue 14: a sale's entry and a withdrawal's lock each find their ledger accounts in one statement; before a
 * business's or a currency's first sale or withdrawal they do not all exist, and are created first.
 */
describe('ledger accounts made on first use', () => {
  it('writes the entry when no account of its currency exists yet, then in one statement the next times', async () => {
    const business = await registerAndLogin(t.app, 'business');
    // A currency no other test (or earlier run on a kept database) sells in: payment clearing, revenue
    // and this wallet all start missing.
    const currency = `T${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
    const sale = (orderId: string, amount: bigint, fee: bigint) =>
      t.database.db.transaction((tx) =>
        recordSale(tx, { orderId, businessId: business.account.id, amount, fee, currency }),
      );
    const first = randomUUID();
    await sale(first, 500_000n, 10_000n);
    expect(await postingsOf(`order:${first}`)).toEqual([
      { kind: 'business_wallet', amount: '490000' },
      { kind: 'payment_clearing', amount: '-500000' },
      { kind: 'platform_revenue', amount: '10000' },
    ]);
    const second = randomUUID();
    await sale(second, 300_000n, 0n);
    // No fee: no revenue line (a posting of 0 moves nothing).
    expect(await postingsOf(`order:${second}`)).toEqual([
      { kind: 'business_wallet', amount: '300000' },
      { kind: 'payment_clearing', amount: '-300000' },
    ]);
    const accounts = await t.database.db.execute(
      sql`SELECT kind FROM ledger_accounts WHERE currency = ${currency}`,
    );
    expect(accounts.rows).toHaveLength(3);
    // The same order twice is refused by the entry's unique reference, and moves nothing.
    await expect(sale(second, 300_000n, 0n)).rejects.toThrow();
    expect(await postingsOf(`order:${second}`)).toHaveLength(2);
  });

  it('takes a withdrawal when the payouts-in-flight account of its currency does not exist yet', async () => {
    const business = await fundedBusiness(t, 1_000_000n);
    // The wallet is in NGN; a currency no other test withdraws in makes the one-statement look-up miss (on
    // a kept database only the first run of this test finds it missing; every fresh one does).
    const rare = ['ISK', 'MNT', 'BTN', 'KGS', 'MOP', 'TOP', 'WST', 'SBD'];
    const currency = rare[Math.floor(Math.random() * rare.length)]!;
    await t.database.db.transaction((tx) =>
      recordSale(tx, { orderId: randomUUID(), businessId: business.id, amount: 300_000n, fee: 0n, currency }),
    );
    const deps = {
      db: t.database.db,
      config: { ...t.config, CURRENCY: currency },
      payouts: createSandboxPayouts({ db: t.database.db, settleMs: 0 }),
    };
    const { withdrawal } = await requestWithdrawal(deps, business.id, { amount: 200_000, pin: TEST_PIN });
    expect(withdrawal.amount).toEqual({ amount: 200_000, currency });
    const inFlight = await t.database.db.execute<{ amount: string }>(sql`
      SELECT p.amount::text AS amount FROM postings p
        JOIN ledger_accounts la ON la.id = p.ledger_account_id
        JOIN journal_entries e ON e.id = p.entry_id
       WHERE la.kind = 'payouts_in_flight' AND la.currency = ${currency}
         AND e.reference = ${`withdrawal:${withdrawal.id}`}`);
    expect(inFlight.rows).toEqual([{ amount: '200000' }]);
    // The second finds both accounts in one statement, and the balance check still holds.
    await expect(
      requestWithdrawal(deps, business.id, { amount: 200_000, pin: TEST_PIN }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    await requestWithdrawal(deps, business.id, { amount: 100_000, pin: TEST_PIN });
  });
});
