import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyCard, createDesign, redeemAt } from '../../../tests/fixtures/cards';
import { createTestApp, registerAndLogin, type TestApp } from '../../../tests/fixtures/test-app';

/**
 * ADR 026: rows of the append-only histories take version 7 UUIDs (migration 0019's `uuid_v7()`): the
 * first 48 bits are the time in milliseconds, so new keys land at one end of their indexes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

/** The milliseconds a version 7 UUID carries in its first 48 bits. */
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuid_v7()', () => {
  it('makes distinct version 7, variant 10 ids that carry the clock’s milliseconds', async () => {
    const clock = async () =>
      Number(
        (
          await t.database.pool.query<{ ms: string }>(
            'SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::text AS ms',
          )
        ).rows[0]!.ms,
      );
    const before = await clock();
    const { rows } = await t.database.pool.query<{ id: string }>(
      'SELECT uuid_v7()::text AS id FROM generate_series(1, 1000)',
    );
    const after = await clock();
    expect(new Set(rows.map((row) => row.id)).size).toBe(1000);
    for (const row of rows) {
      expect(row.id).toMatch(VERSION_7);
      // the database's clock between the two readings around the statement
      expect(millisOf(row.id)).toBeGreaterThanOrEqual(before);
      expect(millisOf(row.id)).toBeLessThanOrEqual(after);
    }
  });

  it('sorts a later id after an earlier one', async () => {
    const { rows } = await t.database.pool.query<{ first: string; second: string; ordered: boolean }>(
      `WITH a AS (SELECT uuid_v7() AS first), pause AS (SELECT pg_sleep(0.002) FROM a),
            b AS (SELECT uuid_v7() AS second FROM pause)
       SELECT first::text, second::text, first < second AS ordered FROM a, b`,
    );
    expect(millisOf(rows[0]!.second)).toBeGreaterThan(millisOf(rows[0]!.first));
    expect(rows[0]!.ordered).toBe(true);
  });
});

describe('the histories’ new rows', () => {
  it('a sale’s journal entry, its postings and the card’s activities take time-ordered ids', async () => {
    const seller = await registerAndLogin(t.app, 'business');
    const buyer = await registerAndLogin(t.app, 'user');
    const card = await buyCard(t, buyer, await createDesign(seller, 500_000));
    const redeemed = await redeemAt(seller, { code: card.code, amount: 10_000 });
    expect(redeemed.statusCode, redeemed.body).toBe(201);

    const { rows } = await t.database.pool.query<{ what: string; id: string; at: number }>(
      `SELECT 'entry' AS what, e.id::text, (extract(epoch FROM e.created_at) * 1000)::float8 AS at
         FROM journal_entries e WHERE e.reference = $1
       UNION ALL
       SELECT 'posting', p.id::text, (extract(epoch FROM e.created_at) * 1000)::float8
         FROM postings p JOIN journal_entries e ON e.id = p.entry_id WHERE e.reference = $1
       UNION ALL
       SELECT 'activity:' || a.kind, a.id::text, (extract(epoch FROM a.created_at) * 1000)::float8
         FROM card_activities a WHERE a.purchased_card_id = $2`,
      [`order:${card.order.id}`, card.id],
    );
    // the postings: the buyer's payment and the business's share (and the platform's fee, when there is one)
    expect(rows.filter((row) => row.what === 'posting').length).toBeGreaterThanOrEqual(2);
    // (a card is its own issue, ADR 039: a sale writes no activity, the redemption writes the card's first)
    expect([...new Set(rows.map((row) => row.what))].sort()).toEqual(['activity:redeem', 'entry', 'posting']);
    for (const row of rows) {
      expect(row.id, row.what).toMatch(VERSION_7);
      // the id's clock is the row's own time (created_at is the transaction's start or the clock at the
      // insert, read a moment apart from the id's), not years off as a random id's first 48 bits would be
      expect(Math.abs(millisOf(row.id) - row.at), row.what).toBeLessThan(10_000);
    }
  });
});
