import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PIN = TEST_PIN;

/** A business with ₦10,000 in its wallet, a PIN and a default bank account, and its legacy withdraw call. */
async function legacyBusiness() {
  const business = await fundedBusiness(t, 1_000_000n);
  const id = business.id;
  const withdraw = (amount: number, key?: string) =>
    business.request({
      method: 'POST',
      url: `/api/withdraw-money/${id}`,
      payload: { amount, pin: PIN },
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const count = async () =>
    (
      await t.database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM withdrawals WHERE business_id = ${id}`,
      )
    ).rows[0]!.n;
  const balance = async () =>
    (await business.request({ method: 'GET', url: '/api/v1/wallet' })).json().balance.amount as number;
  return { ...business, id, withdraw, count, balance };
}

describe('legacy POST /api/withdraw-money/{businessId}: one withdrawal per request, however often it is sent', () => {
  it('two at once with the same Idempotency-Key make one withdrawal; a different body with that key is 409', async () => {
    const business = await legacyBusiness();
    const [a, b] = await Promise.all([
      business.withdraw(1500, 'legacy-key-1'),
      business.withdraw(1500, 'legacy-key-1'),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().data.id).toBe(b.json().data.id);
    expect(await business.count()).toBe(1);
    expect(await business.balance()).toBe(850_000);

    const later = await business.withdraw(1500, 'legacy-key-1');
    expect(later.statusCode).toBe(200);
    expect(later.json().data.id).toBe(a.json().data.id);
    const conflict = await business.withdraw(2000, 'legacy-key-1');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await business.count()).toBe(1);
  });

  it('two identical requests without a key at once make one withdrawal', async () => {
    const business = await legacyBusiness();
    const [a, b] = await Promise.all([business.withdraw(1500), business.withdraw(1500)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().data.id).toBe(b.json().data.id);
    expect(await business.count()).toBe(1);
    expect(await business.balance()).toBe(850_000);
  });

  it('20 identical requests in parallel make one withdrawal', async () => {
    const business = await legacyBusiness();
    const results = await Promise.all(Array.from({ length: 20 }, () => business.withdraw(1000)));
    expect(results.map((r) => r.statusCode).filter((s) => s === 201)).toHaveLength(1);
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect(await business.count()).toBe(1);
    expect(await business.balance()).toBe(900_000);
  });

  it('a different amount, or the same amount once the window has passed, is a new withdrawal', async () => {
    const business = await legacyBusiness();
    expect((await business.withdraw(1500)).statusCode).toBe(201);
    expect((await business.withdraw(1600)).statusCode).toBe(201);
    await t.database.db.execute(
      sql`UPDATE withdrawals SET created_at = created_at - interval '11 seconds' WHERE business_id = ${business.id}`,
    );
    expect((await business.withdraw(1500)).statusCode).toBe(201);
    expect(await business.count()).toBe(3);
  });
});
