import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { genericPlan, onFreshCopy, plansOverRuns } from '../../../../tests/fixtures/plans';
import { ordersInsert } from './orders.repository';

describe("the orders' insert (issue 14)", () => {
  const { sql: text, params } = new PgDialect().sqlToQuery(ordersInsert());
  /** One order with every value null: a batch of one that writes nothing (no design matches it). */
  const oneOrder = params.map(() => `'{NULL}'`);

  it('checks each design by one look-up of it and one of its business by id, even on tables not yet analyzed', async () => {
    await onFreshCopy(['gift_cards', 'accounts'], '', async (tx) => {
      const plan = await genericPlan(
        tx,
        text,
        params.map(() => `'{}'`),
      );
      // By its primary key or by the (id, business_id) key that orders and cards name (ADR 038): a probe by id.
      expect(plan).toMatch(
        /Index Scan using gift_cards_(pkey|id_business\w*) on gift_cards g[^\n]*\n\s*Index Cond: \(id = o\.gift_card_id\)/,
      );
      expect(plan).toMatch(/Index Scan using accounts_pkey on accounts a/);
      expect(plan).not.toMatch(/Seq Scan on (gift_cards|accounts)/);
    });
  });

  it('keeps its generic plan when its batches are of one order, instead of being planned on every run', async () => {
    await onFreshCopy(['orders', 'gift_cards', 'accounts'], '', async (tx) => {
      expect(await plansOverRuns(tx, text, oneOrder, 8)).toEqual({ generic: 3, custom: 5 });
    });
  });
});
