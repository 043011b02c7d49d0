import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { genericPlan, onFreshCopy } from '../../../../tests/fixtures/plans';
import { sqlBuiltOnce } from '../../db/client';
import { paidOrders, paidOrderValues } from './orders.repository';

/** The sale statement's `paid` part alone, as text with $n parameters. */
function paidStatement(asRead: boolean): string {
  return new PgDialect().sqlToQuery(sql`WITH paid AS (${paidOrders(asRead)}) SELECT count(*) FROM paid`).sql;
}

/** The part alone on orders read without a lock, built once; it answers the orders it made paid. */
const paidAsRead = sqlBuiltOnce(
  'paid_orders_test_as_read',
  () => sql`WITH paid AS (${paidOrders(true)}) SELECT id FROM paid`,
);

const ONE_PENDING = `INSERT INTO orders (id, reference, buyer_id, gift_card_id, business_id, amount, currency,
                                         status, provider)
  VALUES (gen_random_uuid(), 'GM-PLAN', gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 100, 'NGN',
          'pending', 'sandbox')`;

describe('the orders a sale statement makes paid (issue 14)', () => {
  it('are found by id in orders_pkey, then by their row address, even on a table not yet analyzed', async () => {
    await onFreshCopy('orders', ONE_PENDING, async (tx) => {
      for (const asRead of [true, false]) {
        const plan = await genericPlan(tx, paidStatement(asRead), [`'{}'`, `'{}'`]);
        expect(plan).toMatch(/Index Scan using orders_pkey on orders/);
        expect(plan).toMatch(/Tid Scan on orders o/);
        expect(plan).not.toMatch(/Seq Scan on orders/);
      }
    });
  });

  it('writes only orders still pending when read without a lock, and answers them', async () => {
    await onFreshCopy('orders', ONE_PENDING, async (tx) => {
      const [pending] = (await tx.execute<{ id: string }>(sql`SELECT id FROM orders`)).rows;
      const paidAt = new Date('2026-11-26T12:00:00Z');
      const sales = [
        { orderId: pending!.id, paidAt },
        { orderId: crypto.randomUUID(), paidAt },
      ];
      const first = await paidAsRead(tx).execute(paidOrderValues(sales));
      expect(first.rows).toEqual([{ id: pending!.id }]);
      const row = await tx.execute(
        sql`SELECT status, paid_at = ${paidAt.toISOString()}::timestamptz AS at_that_time FROM orders`,
      );
      expect(row.rows).toEqual([{ status: 'paid', at_that_time: true }]);
      // Read again as pending, it is paid already: nothing.
      const again = await paidAsRead(tx).execute(paidOrderValues(sales));
      expect(again.rows).toEqual([]);
    });
  });
});
