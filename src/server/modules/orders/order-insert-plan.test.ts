import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { genericPlan, onFreshCopy } from '../../../../tests/fixtures/plans';
import { ordersInsert } from './orders.repository';

describe("the orders' insert checks each order's design (issue 14)", () => {
  it('by one look-up of the design and one of its business by id, even on tables not yet analyzed', async () => {
    const { sql: text, params } = new PgDialect().sqlToQuery(ordersInsert());
    await onFreshCopy(['gift_cards', 'accounts'], '', async (tx) => {
      const plan = await genericPlan(
        tx,
        text,
        params.map(() => `'{}'`),
      );
      expect(plan).toMatch(/Index Scan using gift_cards_pkey on gift_cards g/);
      expect(plan).toMatch(/Index Scan using accounts_pkey on accounts a/);
      expect(plan).not.toMatch(/Seq Scan on (gift_cards|accounts)/);
    });
  });
});
