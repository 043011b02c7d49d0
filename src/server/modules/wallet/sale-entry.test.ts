import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { recordSale } from './wallet.service';

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

/**
 * Issue 14: a sale's entry is one statement that finds its three accounts itself; before a business's or a
 * currency's first sale they do not all exist, and the entry is written after creating them.
 */
describe('a sale in the ledger', () => {
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
});
