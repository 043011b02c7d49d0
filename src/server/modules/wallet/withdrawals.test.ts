import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness as funded, TEST_PIN } from '../../../../tests/fixtures/wallet';
import { createSandboxPayouts, SANDBOX_FAILING_ACCOUNT } from './payouts/sandbox-payouts';
import { formatMoney } from '../../../shared/money';
import { hashPin } from './pin-hash';
import {
  callRequestWithdrawalChecked,
  callRequestWithdrawalsChecked,
  leaseDueWithdrawals,
} from './withdrawals.repository';
import { processDueWithdrawals } from './withdrawals.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PIN = TEST_PIN;

const fundedBusiness = (balanceKobo: bigint, options?: Parameters<typeof funded>[2]) =>
  funded(t, balanceKobo, options);

async function balance(business: { request: Awaited<ReturnType<typeof registerAndLogin>>['request'] }) {
  return (await business.request({ method: 'GET', url: '/api/v1/wallet' })).json().balance.amount as number;
}

async function unbalancedEntries(): Promise<number> {
  const rows = await t.database.db.execute(
    sql`SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount) <> 0`,
  );
  return rows.rows.length;
}

const payouts = () => createSandboxPayouts({ db: t.database.db, settleMs: 0 });
async function settleAll() {
  // Two passes: the first sends the transfer, the second (after its lease) reads the final state.
  for (let i = 0; i < 3; i += 1) {
    await t.database.db.execute(
      sql`UPDATE withdrawals SET next_attempt_at = now() WHERE status IN ('requested', 'processing')`,
    );
    await processDueWithdrawals({ db: t.database.db, config: t.config, payouts: payouts() }, 200);
  }
}

describe('POST /api/v1/withdrawals', () => {
  it('takes the money from the wallet at once and pays it out: requested → paid, ledger balanced', async () => {
    const business = await fundedBusiness(1_000_000n);
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 250_000, pin: PIN },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'requested', amount: { amount: 250_000, currency: 'NGN' } });
    // The answer is built from what the transaction wrote; reading the withdrawal back gives the same.
    const read = await business.request({ method: 'GET', url: `/api/v1/withdrawals/${res.json().id}` });
    expect(read.json()).toEqual(res.json());
    expect(await balance(business)).toBe(750_000);
    await settleAll();
    const after = await business.request({ method: 'GET', url: `/api/v1/withdrawals/${res.json().id}` });
    expect(after.json()).toMatchObject({ status: 'paid' });
    expect(await balance(business)).toBe(750_000);
    expect(await unbalancedEntries()).toBe(0);
    const history = await business.request({ method: 'GET', url: '/api/v1/withdrawals' });
    expect(history.json().items.map((w: { id: string }) => w.id)).toEqual([res.json().id]);
  });

  it('a failed transfer is reversed: the money is back in the wallet and the history says failed', async () => {
    const business = await fundedBusiness(500_000n, { accountNumber: SANDBOX_FAILING_ACCOUNT });
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 200_000, pin: PIN },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await balance(business)).toBe(300_000);
    await settleAll();
    const after = (
      await business.request({ method: 'GET', url: `/api/v1/withdrawals/${res.json().id}` })
    ).json();
    expect(after.status).toBe('failed');
    expect(after.failureReason).toMatch(/rejected/);
    expect(await balance(business)).toBe(500_000);
    const notes = await t.database.db.execute<{ title: string }>(
      sql`SELECT title FROM notifications WHERE account_id = ${business.id} AND kind = 'withdrawal_status' ORDER BY created_at`,
    );
    expect(notes.rows.map((r) => r.title)).toContain('Withdrawal failed');
    expect(await unbalancedEntries()).toBe(0);
  });

  it('payout workers leasing at once: each due withdrawal goes to exactly one of them, then none for 30 s', async () => {
    const business = await fundedBusiness(2_000_000n);
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await business.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        payload: { amount: 100_000, pin: PIN },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    await t.database.db.execute(
      sql`UPDATE withdrawals SET next_attempt_at = now() - interval '1 second'
           WHERE id IN (${sql.join(
             ids.map((id) => sql`${id}::uuid`),
             sql`, `,
           )})`,
    );
    // A withdrawal another worker is handling (its row locked) is skipped, not waited for.
    const [held, ...others] = ids;
    let leases: Awaited<ReturnType<typeof leaseDueWithdrawals>>[] = [];
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM withdrawals WHERE id = ${held}::uuid FOR UPDATE`);
      leases = await Promise.all(Array.from({ length: 6 }, () => leaseDueWithdrawals(t.database.db, 200)));
    });
    const mine = leases.flat().filter((row) => ids.includes(row.id));
    expect(mine.map((row) => row.id).sort()).toEqual([...others].sort());
    const afterRelease = await leaseDueWithdrawals(t.database.db, 200);
    expect(afterRelease.filter((row) => ids.includes(row.id)).map((row) => row.id)).toEqual([held]);
    mine.push(...afterRelease.filter((row) => row.id === held));
    expect(mine.every((row) => row.nextAttemptAt!.getTime() > Date.now() + 20_000)).toBe(true);
    const again = await leaseDueWithdrawals(t.database.db, 200);
    expect(again.filter((row) => ids.includes(row.id))).toEqual([]);
  });

  it('20 withdrawals of ₦1,000 at once from ₦10,000: exactly 10 succeed, the rest are refused, never below zero', async () => {
    const business = await fundedBusiness(1_000_000n);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        business.request({
          method: 'POST',
          url: '/api/v1/withdrawals',
          payload: { amount: 100_000, pin: PIN },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(10);
    for (const r of refused) {
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
      expect(r.json().message).toMatch(/insufficient balance/);
    }
    expect(await balance(business)).toBe(0);
    expect(await unbalancedEntries()).toBe(0);
  });

  it('refuses amounts that are too small, too large, or not whole minor units, with clear messages', async () => {
    const business = await fundedBusiness(500_000n);
    const cases: [unknown, number, RegExp][] = [
      [99_999, 400, /smallest withdrawal is ₦1,000\.00/],
      [500_001, 400, /insufficient balance/],
      [0, 400, /more than 0/],
      [-100, 400, /more than 0/],
      [1000.5, 400, /2 decimal places/],
      ['100000', 400, /./],
    ];
    for (const [amount, status, message] of cases) {
      const res = await business.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        payload: { amount, pin: PIN },
      });
      expect(res.statusCode, String(amount)).toBe(status);
      expect(res.json().message, String(amount)).toMatch(message);
    }
    expect(await balance(business)).toBe(500_000);
  });

  it('a wrong PIN moves nothing and counts toward the lock-out', async () => {
    const business = await fundedBusiness(500_000n);
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: '9999' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/tries left/);
    expect(await balance(business)).toBe(500_000);
  });

  it('needs a bank account', async () => {
    const business = await fundedBusiness(500_000n, { bank: false });
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: PIN },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BANK_ACCOUNT_REQUIRED' });
  });

  it('Idempotency-Key: a retry returns the first withdrawal and moves no money twice; another body is 409', async () => {
    const business = await fundedBusiness(1_000_000n);
    const headers = { 'idempotency-key': `wd-${Date.now()}-${Math.random()}` };
    const first = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      headers,
      payload: { amount: 100_000, pin: PIN },
    });
    const again = await Promise.all(
      Array.from({ length: 5 }, () =>
        business.request({
          method: 'POST',
          url: '/api/v1/withdrawals',
          headers,
          payload: { amount: 100_000, pin: PIN },
        }),
      ),
    );
    expect(first.statusCode).toBe(201);
    for (const r of again) {
      expect(r.statusCode).toBe(200);
      expect(r.json().id).toBe(first.json().id);
    }
    expect(await balance(business)).toBe(900_000);
    const other = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      headers,
      payload: { amount: 200_000, pin: PIN },
    });
    expect(other.statusCode).toBe(409);
  });

  it('Idempotency-Key, 20 at once with no first answer yet: one withdrawal, the rest replay it, whether or not the balance covers a second', async () => {
    for (const funds of [10_000_000n, 150_000n]) {
      const business = await fundedBusiness(funds);
      const headers = { 'idempotency-key': `wd-race-${funds}-${Math.random()}` };
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          business.request({
            method: 'POST',
            url: '/api/v1/withdrawals',
            headers,
            payload: { amount: 100_000, pin: PIN },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join('\n')).toEqual(
        [...Array(19).fill(200), 201].sort(),
      );
      expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
      expect(await balance(business)).toBe(Number(funds) - 100_000);
    }
  });

  it('a payout attempted twice (a crash between sending and recording) pays once', async () => {
    const business = await fundedBusiness(500_000n);
    const res = await business.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: PIN },
    });
    const id = res.json().id as string;
    const provider = payouts();
    const [row] = (
      await t.database.db.execute<{ reference: string }>(
        sql`SELECT reference FROM withdrawals WHERE id = ${id}`,
      )
    ).rows;
    // The provider got the transfer but the app died before recording it: the row is still 'requested'.
    await provider.transfer({
      reference: row!.reference,
      amount: 100_000n,
      currency: 'NGN',
      bankCode: '058',
      accountNumber: '0000000000',
      accountName: 'X',
      reason: 'test',
    });
    await settleAll();
    const transfers = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM sandbox_transfers WHERE reference = ${row!.reference}`,
    );
    expect(transfers.rows[0]).toEqual({ n: 1 });
    expect((await business.request({ method: 'GET', url: `/api/v1/withdrawals/${id}` })).json().status).toBe(
      'paid',
    );
    const settled = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM journal_entries WHERE reference = ${`withdrawal:${id}:settled`}`,
    );
    expect(settled.rows[0]).toEqual({ n: 1 });
  });
});

describe('the withdrawal in one statement (request_withdrawal_checked, migration 0021)', () => {
  const call = (
    business: { id: string },
    options: { pin?: string; key?: string; bankAccountId?: string } = {},
  ) =>
    callRequestWithdrawalChecked(t.database.db, {
      businessId: business.id,
      currency: 'NGN',
      bankAccountId: options.bankAccountId ?? null,
      amount: 100_000n,
      reference: `WD-TEST-${randomUUID()}`,
      idempotencyKey: options.key ?? null,
      fingerprint: '100000:default',
      sameWithinSeconds: 0,
      pinHash: hashPin(t.config.CODE_ENCRYPTION_KEY, business.id, options.pin ?? PIN),
      news: JSON.stringify([
        { account_id: business.id, kind: 'withdrawal_status', title: 'T', body: 'to {bank}.', link: null },
      ]),
    });
  const news = async (business: { id: string }) =>
    (
      await t.database.db.execute<{ body: string }>(
        sql`SELECT body FROM notifications WHERE account_id = ${business.id} AND kind = 'withdrawal_status'`,
      )
    ).rows.map((row) => row.body);
  const accountNumber = async (bankId: string) =>
    (
      await t.database.db.execute<{ n: string }>(
        sql`SELECT account_number AS n FROM bank_accounts WHERE id = ${bankId}`,
      )
    ).rows[0]!.n;

  it('writes the withdrawal and its news, naming the bank account, when the PIN is plainly right', async () => {
    const business = await fundedBusiness(500_000n);
    await t.database.db.execute(
      sql`UPDATE bank_accounts SET bank_name = ${'Bank "{bank}" \\ Ltd'} WHERE id = ${business.bankId!}`,
    );
    const result = await call(business);
    expect(result).toMatchObject({ outcome: 'written', balance: 400_000n, bank: { id: business.bankId } });
    const last4 = (await accountNumber(business.bankId!)).slice(-4);
    expect(await news(business)).toEqual([`to Bank "{bank}" \\ Ltd ••${last4}.`]);
    expect(await balance(business)).toBe(400_000);
    // The named account, as the default.
    expect(await call(business, { bankAccountId: business.bankId! })).toMatchObject({ outcome: 'written' });
  });

  it("answers 'check' and writes nothing for whatever the app must decide", async () => {
    const business = await fundedBusiness(500_000n);
    const noBank = await fundedBusiness(500_000n, { bank: false });
    const noPin = await fundedBusiness(500_000n, { pin: false });
    // With the bank account it read, for the app to decide the PIN with; none when there is no such account.
    expect(await call(business, { pin: '9999' })).toMatchObject({
      outcome: 'check',
      bank: { id: business.bankId },
    });
    expect(await call(business, { bankAccountId: randomUUID() })).toMatchObject({
      outcome: 'check',
      bank: null,
    });
    expect((await call(noBank)).outcome).toBe('check');
    expect((await call(noPin)).outcome).toBe('check');
    // A PIN with a wrong try before it: the app's check forgets the try; this function cannot.
    await t.database.db.execute(
      sql`UPDATE transaction_pins SET failed_attempts = 1 WHERE account_id = ${business.id}`,
    );
    expect((await call(business)).outcome).toBe('check');
    await t.database.db.execute(
      sql`UPDATE transaction_pins SET failed_attempts = 0, locked_until = now() - interval '1 minute' WHERE account_id = ${business.id}`,
    );
    expect((await call(business)).outcome).toBe('check');
    await t.database.db.execute(
      sql`UPDATE transaction_pins SET locked_until = NULL, reset_required_at = now() WHERE account_id = ${business.id}`,
    );
    expect((await call(business)).outcome).toBe('check');
    for (const b of [business, noBank, noPin]) {
      expect(await news(b)).toEqual([]);
      expect(await balance(b)).toBe(500_000);
    }
  });

  it("answers a key used before with 'replay' and the first withdrawal, before the PIN", async () => {
    const business = await fundedBusiness(500_000n);
    const key = randomUUID();
    const first = await call(business, { key });
    expect(first.outcome).toBe('written');
    expect(await call(business, { key, pin: '9999' })).toMatchObject({
      outcome: 'replay',
      id: first.id,
      bank: null,
    });
    expect(await balance(business)).toBe(400_000);
  });

  it('many businesses in one statement (ADR 027): each answered in the order given, as it would be alone', async () => {
    const businesses = [
      await fundedBusiness(500_000n),
      await fundedBusiness(50_000n), // too little for 100,000
      await fundedBusiness(500_000n), // a wrong PIN
      await fundedBusiness(500_000n, { bank: false }),
      await fundedBusiness(300_000n),
    ];
    // Given against the order of their ids, which the statement locks their wallets in.
    const order = businesses
      .map((_, i) => i)
      .sort((x, y) => (businesses[x]!.id < businesses[y]!.id ? 1 : -1));
    const outcomes = await callRequestWithdrawalsChecked(
      t.database.db,
      order.map((i) => ({
        businessId: businesses[i]!.id,
        currency: 'NGN',
        bankAccountId: null,
        amount: 100_000n,
        reference: `WD-TEST-${randomUUID()}`,
        idempotencyKey: null,
        fingerprint: '100000:default',
        sameWithinSeconds: 0,
        pinHash: hashPin(t.config.CODE_ENCRYPTION_KEY, businesses[i]!.id, i === 2 ? '9999' : PIN),
        news: JSON.stringify([
          {
            account_id: businesses[i]!.id,
            kind: 'withdrawal_status',
            title: 'T',
            body: 'to {bank}.',
            link: null,
          },
        ]),
      })),
    );
    const byBusiness = new Map(order.map((i, k) => [i, outcomes[k]!]));
    expect(byBusiness.get(0)).toMatchObject({
      outcome: 'written',
      balance: 400_000n,
      bank: { id: businesses[0]!.bankId },
    });
    expect(byBusiness.get(1)).toMatchObject({ outcome: 'insufficient', balance: 50_000n });
    expect(byBusiness.get(2)).toMatchObject({ outcome: 'check', bank: { id: businesses[2]!.bankId } });
    expect(byBusiness.get(3)).toMatchObject({ outcome: 'check', bank: null });
    expect(byBusiness.get(4)).toMatchObject({
      outcome: 'written',
      balance: 200_000n,
      bank: { id: businesses[4]!.bankId },
    });
    expect(await Promise.all(businesses.map((b) => balance(b)))).toEqual([
      400_000, 50_000, 500_000, 500_000, 200_000,
    ]);
    expect((await news(businesses[0]!)).length + (await news(businesses[4]!)).length).toBe(2);
    expect(await news(businesses[1]!)).toEqual([]);
  });

  /** One withdrawal of `amount` for `callRequestWithdrawalsChecked`, with the right PIN unless told. */
  const checked = (
    business: { id: string },
    amount: bigint,
    options: { key?: string; sameWithinSeconds?: number } = {},
  ) => ({
    businessId: business.id,
    currency: 'NGN',
    bankAccountId: null,
    amount,
    reference: `WD-TEST-${randomUUID()}`,
    idempotencyKey: options.key ?? null,
    fingerprint: `${amount}:default`,
    sameWithinSeconds: options.sameWithinSeconds ?? 0,
    pinHash: hashPin(t.config.CODE_ENCRYPTION_KEY, business.id, PIN),
    news: JSON.stringify([
      { account_id: business.id, kind: 'withdrawal_status', title: 'T', body: 'to {bank}.', link: null },
    ]),
  });

  it('a batch that names a business twice (ADR 041) runs them one after the other, the second seeing the first', async () => {
    const business = await fundedBusiness(150_000n);
    const other = await fundedBusiness(500_000n);
    const key = randomUUID();
    const outcomes = await callRequestWithdrawalsChecked(t.database.db, [
      checked(business, 100_000n),
      checked(other, 100_000n, { key }),
      checked(business, 100_000n),
      checked(other, 100_000n, { key }),
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['written', 'written', 'insufficient', 'replay']);
    expect(outcomes[2]).toMatchObject({ balance: 50_000n });
    expect(outcomes[3]).toMatchObject({ id: outcomes[1]!.id, bank: null });
    expect([await balance(business), await balance(other)]).toEqual([50_000, 400_000]);
    expect((await news(business)).length + (await news(other)).length).toBe(2);
  });

  it("answers the old client's same request and a key used before within a batch, and writes the others (ADR 041)", async () => {
    const [again, keyed, fresh] = [
      await fundedBusiness(500_000n),
      await fundedBusiness(500_000n),
      await fundedBusiness(500_000n),
    ];
    const key = randomUUID();
    const [first] = await callRequestWithdrawalsChecked(t.database.db, [checked(again, 100_000n)]);
    const [keyedFirst] = await callRequestWithdrawalsChecked(t.database.db, [
      checked(keyed, 100_000n, { key }),
    ]);
    const outcomes = await callRequestWithdrawalsChecked(t.database.db, [
      checked(again, 100_000n, { sameWithinSeconds: 60 }),
      checked(keyed, 100_000n, { key }),
      checked(fresh, 100_000n),
      // Not the same: another amount.
      checked(again, 200_000n, { sameWithinSeconds: 60 }),
    ]);
    expect(outcomes[0]).toMatchObject({ outcome: 'same', id: first!.id, bank: { id: again.bankId } });
    expect(outcomes[1]).toMatchObject({ outcome: 'replay', id: keyedFirst!.id, bank: null });
    expect(outcomes[2]).toMatchObject({ outcome: 'written', balance: 400_000n, bank: { id: fresh.bankId } });
    expect(outcomes[3]).toMatchObject({ outcome: 'written', balance: 200_000n });
    expect(await Promise.all([again, keyed, fresh].map((b) => balance(b)))).toEqual([
      200_000, 400_000, 400_000,
    ]);
  });

  it('a withdrawal whose key another transaction writes while the batch waits is answered by itself, as a replay (ADR 041)', async () => {
    const business = await fundedBusiness(500_000n);
    const other = await fundedBusiness(500_000n);
    const key = randomUUID();
    const client = await t.database.pool.connect();
    try {
      // Not through the functions, which would take the wallet's lock first: only so can the key meet the
      // batch's insert.
      await client.query('BEGIN');
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO withdrawals (business_id, bank_account_id, amount, currency, reference, idempotency_key,
                                  request_fingerprint)
         VALUES ($1, $2, 100000, 'NGN', $3, $4, '100000:default') RETURNING id`,
        [business.id, business.bankId, `WD-TEST-${randomUUID()}`, key],
      );
      const batch = callRequestWithdrawalsChecked(t.database.db, [
        checked(business, 100_000n, { key }),
        checked(other, 100_000n),
      ]);
      // The batch's insert waits on the key's row until the other transaction ends.
      for (let i = 0; i < 200; i += 1) {
        const waiting = await t.database.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE wait_event_type = 'Lock' AND query LIKE '%request_withdrawals_checked%'`,
        );
        if (waiting.rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await client.query('COMMIT');
      const outcomes = await batch;
      expect(outcomes[0]).toMatchObject({ outcome: 'replay', id: inserted.rows[0]!.id, bank: null });
      expect(outcomes[1]).toMatchObject({ outcome: 'written', balance: 400_000n });
    } finally {
      client.release();
    }
    expect([await balance(business), await balance(other)]).toEqual([500_000, 400_000]);
    expect(await news(business)).toEqual([]);
    expect(await unbalancedEntries()).toBe(0);
  });

  it('the API writes the same news either way: one statement, or the full path after a wrong try', async () => {
    const business = await fundedBusiness(1_000_000n);
    const withdraw = (pin: string, amount: number) =>
      business.request({ method: 'POST', url: '/api/v1/withdrawals', payload: { amount, pin } });
    expect((await withdraw(PIN, 100_000)).statusCode).toBe(201);
    expect((await withdraw('9999', 200_000)).statusCode).toBe(403);
    expect((await withdraw(PIN, 200_000)).statusCode).toBe(201);
    const last4 = (await accountNumber(business.bankId!)).slice(-4);
    expect((await news(business)).sort()).toEqual(
      [100_000, 200_000].map(
        (amount) =>
          `${formatMoney({ amount, currency: 'NGN' })} is on its way to Guaranty Trust Bank ••${last4}.`,
      ),
    );
    expect(await balance(business)).toBe(700_000);
  });
});

describe('who may see and use withdrawals', () => {
  it('another business cannot see or use them; a user gets 403; signed out 401', async () => {
    const owner = await fundedBusiness(500_000n);
    const res = await owner.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: PIN },
    });
    const other = await registerAndLogin(t.app, 'business');
    expect(
      (await other.request({ method: 'GET', url: `/api/v1/withdrawals/${res.json().id}` })).statusCode,
    ).toBe(404);
    expect((await other.request({ method: 'GET', url: '/api/v1/withdrawals' })).json().items).toEqual([]);
    const foreignBank = await other.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: PIN, bankAccountId: owner.bankId },
    });
    expect(foreignBank.statusCode).toBe(404);
    const user = await registerAndLogin(t.app, 'user');
    expect((await user.request({ method: 'GET', url: '/api/v1/withdrawals' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/withdrawals' })).statusCode).toBe(401);
  });
});

describe('legacy POST /api/withdraw-money/{businessId}', () => {
  it('withdraws naira to the default account for the business itself', async () => {
    const business = await fundedBusiness(500_000n);
    const res = await business.request({
      method: 'POST',
      url: `/api/withdraw-money/${business.id}`,
      payload: { amount: 1500, pin: PIN },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Withdrawal requested',
      data: { amount: { amount: 150_000 } },
    });
    expect(await balance(business)).toBe(350_000);
  });

  it('says which set-up step is missing, and refuses another business', async () => {
    const noPin = await fundedBusiness(500_000n, { pin: false });
    const a = await noPin.request({
      method: 'POST',
      url: `/api/withdraw-money/${noPin.id}`,
      payload: { amount: 1500 },
    });
    expect(a.statusCode).toBe(400);
    expect(a.json().message).toMatch(/PIN/);
    const noBank = await fundedBusiness(500_000n, { bank: false });
    const b = await noBank.request({
      method: 'POST',
      url: `/api/withdraw-money/${noBank.id}`,
      payload: { amount: 1500, pin: PIN },
    });
    expect(b.statusCode).toBe(400);
    expect(b.json().message).toMatch(/bank account/);
    const other = await registerAndLogin(t.app, 'business');
    const c = await other.request({
      method: 'POST',
      url: `/api/withdraw-money/${noBank.id}`,
      payload: { amount: 1500, pin: PIN },
    });
    expect(c.statusCode).toBe(403);
  });
});

describe('Paystack transfer webhooks', () => {
  it('a transfer.success delivered five times at once marks the withdrawal paid once', async () => {
    const paystack = await createTestApp({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_withdrawals',
    });
    try {
      const business = await fundedBusiness(500_000n);
      const res = await business.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        payload: { amount: 100_000, pin: PIN },
      });
      const { id, reference } = res.json() as { id: string; reference: string };
      const raw = JSON.stringify({
        event: 'transfer.success',
        data: { reference, amount: 100000, status: 'success' },
      });
      const signature = createHmac('sha512', 'sk_test_withdrawals').update(raw).digest('hex');
      const deliveries = await Promise.all(
        Array.from({ length: 5 }, () =>
          paystack.app.inject({
            method: 'POST',
            url: '/api/v1/payments/paystack/webhook',
            headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
            payload: raw,
          }),
        ),
      );
      expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(
        (await business.request({ method: 'GET', url: `/api/v1/withdrawals/${id}` })).json().status,
      ).toBe('paid');
      const settled = await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM journal_entries WHERE reference = ${`withdrawal:${id}:settled`}`,
      );
      expect(settled.rows[0]).toEqual({ n: 1 });
      const bad = await paystack.app.inject({
        method: 'POST',
        url: '/api/v1/payments/paystack/webhook',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': 'forged' },
        payload: raw,
      });
      expect(bad.statusCode).toBe(401);
    } finally {
      await paystack.close();
    }
  });

  it('a transfer.reversed after success puts the money back in the wallet once, says so, and a redelivery does nothing', async () => {
    const secret = 'sk_test_reversal';
    const paystack = await createTestApp({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: secret });
    const deliver = (event: object) => {
      const raw = JSON.stringify(event);
      return paystack.app.inject({
        method: 'POST',
        url: '/api/v1/payments/paystack/webhook',
        headers: {
          'content-type': 'application/json',
          'x-paystack-signature': createHmac('sha512', secret).update(raw).digest('hex'),
        },
        payload: raw,
      });
    };
    try {
      const business = await fundedBusiness(500_000n);
      const res = await business.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        payload: { amount: 100_000, pin: PIN },
      });
      const { id, reference } = res.json() as { id: string; reference: string };
      const paid = await deliver({
        event: 'transfer.success',
        data: { reference, amount: 100000, status: 'success' },
      });
      expect(paid.json()).toEqual({ received: true, result: 'transfer-applied' });
      expect(await balance(business)).toBe(400_000);

      const reversal = {
        event: 'transfer.reversed',
        data: { reference, amount: 100000, status: 'reversed' },
      };
      const first = await Promise.all([deliver(reversal), deliver(reversal), deliver(reversal)]);
      expect(first.map((d) => d.statusCode)).toEqual([200, 200, 200]);
      expect(await balance(business)).toBe(500_000);
      const again = await deliver(reversal);
      expect(again.statusCode).toBe(200);
      expect(await balance(business)).toBe(500_000);

      const after = (await business.request({ method: 'GET', url: `/api/v1/withdrawals/${id}` })).json();
      expect(after).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/reversed/) });
      const entries = await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM journal_entries WHERE reference LIKE ${`withdrawal:${id}:%`}`,
      );
      expect(entries.rows[0]).toEqual({ n: 2 }); // settled, then reversed
      expect(await unbalancedEntries()).toBe(0);
      const notes = await t.database.db.execute<{ title: string }>(
        sql`SELECT title FROM notifications WHERE account_id = ${business.id} AND kind = 'withdrawal_status' ORDER BY created_at`,
      );
      expect(notes.rows.filter((r) => r.title === 'Withdrawal reversed')).toHaveLength(1);
      const mails = await t.database.db.execute<{ subject: string }>(
        sql`SELECT subject FROM mail_outbox WHERE account_id = ${business.id} AND subject LIKE '%reversed%'`,
      );
      expect(mails.rows).toEqual([{ subject: 'Your Giftmart withdrawal was reversed' }]);
      // A late success for the same transfer does not mark it paid again.
      await deliver({ event: 'transfer.success', data: { reference, amount: 100000, status: 'success' } });
      expect(await balance(business)).toBe(500_000);
    } finally {
      await paystack.close();
    }
  });
});
