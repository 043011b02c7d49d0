import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyCard, createDesign } from '../../../../tests/fixtures/cards';
import { callsDuring, inTransaction as inTransactionOn } from '../../../../tests/fixtures/transactions';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * The database keeps a card's money honest by itself (0007_card_integrity.sql), whatever the app does:
 * card activity is append-only, each activity's balance_after is the running sum, and a card's balance
 * equals what its activities add up to at commit. Raw SQL on one connection, each case in its own
 * transaction. A card sold since migration 0029 is its own issue (ADR 039): it has no issue activity, and its
 * activities add up from its initial value.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

async function newCard(amount = 500_000) {
  const seller = await registerAndLogin(t.app, 'business');
  const buyer = await registerAndLogin(t.app, 'user');
  return buyCard(t, buyer, await createDesign(seller, amount));
}

/** Runs `work` in one transaction on the test app's pool (see the fixture). */
const inTransaction = (work: (client: pg.PoolClient) => Promise<void>) =>
  inTransactionOn(t.database.pool, work);

/** A new card with one activity: 1000 spent, its balance and the activity written together. */
async function spentCard() {
  const card = await newCard(500_000);
  const error = await inTransaction(async (c) => {
    await c.query(
      "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
      [card.id],
    );
    await c.query('UPDATE purchased_cards SET balance = 499000 WHERE id = $1', [card.id]);
  });
  expect(error).toBeNull();
  return card;
}

async function state(id: string) {
  const card = await t.database.pool.query('SELECT balance FROM purchased_cards WHERE id = $1', [id]);
  const activities = await t.database.pool.query(
    'SELECT kind, amount, balance_after FROM card_activities WHERE purchased_card_id = $1 ORDER BY created_at',
    [id],
  );
  return { balance: card.rows[0].balance as string, activities: activities.rows };
}

describe('card activity is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of card_activities', async () => {
    const card = await spentCard();
    const before = await state(card.id);
    expect(before.activities).toHaveLength(1);
    for (const statement of [
      'UPDATE card_activities SET amount = amount + 1 WHERE purchased_card_id = $1',
      "UPDATE card_activities SET reference = 'edited' WHERE purchased_card_id = $1",
      'DELETE FROM card_activities WHERE purchased_card_id = $1',
    ]) {
      const error = await inTransaction(async (c) => {
        await c.query(statement, [card.id]);
      });
      expect(error, statement).not.toBeNull();
      expect(error!.atCommit).toBe(false);
      expect(error!.code).toBe('42501');
      expect(error!.message).toMatch(/append-only/);
    }
    // TRUNCATE is refused too (inside a transaction that is rolled back whatever happens).
    const truncate = await inTransaction(async (c) => {
      await c.query('TRUNCATE card_activities CASCADE');
      throw Object.assign(new Error('TRUNCATE was allowed'), { code: 'allowed' });
    });
    expect(truncate!.code).toBe('42501');
    expect(await state(card.id)).toEqual(before);
  });
});

describe('balance after is the running sum', () => {
  it('refuses an activity whose balance_after is not the sum of the card’s activities plus its amount', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 400000)",
        [card.id],
      );
      await c.query('UPDATE purchased_cards SET balance = 400000 WHERE id = $1', [card.id]);
    });
    expect(error).not.toBeNull();
    expect(error!.atCommit).toBe(false);
    expect(error!.code).toBe('23514');
    expect(error!.message).toMatch(/activities sum to 499000/);
    expect((await state(card.id)).balance).toBe('500000');
  });

  it('refuses an activity that takes the balance below zero', async () => {
    const card = await newCard(100_000);
    const error = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -100001, -1)",
        [card.id],
      );
    });
    expect(error!.code).toBe('23514');
    expect((await state(card.id)).activities).toHaveLength(0);
  });
});

describe('a card’s balance equals the sum of its activities, at commit', () => {
  it('refuses a new balance without an activity: the statement runs, the COMMIT fails', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 499000 WHERE id = $1', [card.id]);
    });
    expect(error).not.toBeNull();
    expect(error!.atCommit).toBe(true);
    expect(error!.code).toBe('23514');
    expect(error!.message).toMatch(/has balance 499000 but its activities sum to 500000/);
    expect((await state(card.id)).balance).toBe('500000');
  });

  it('refuses an activity without the new balance on the card (at commit)', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
        [card.id],
      );
    });
    expect(error!.atCommit).toBe(true);
    expect(error!.code).toBe('23514');
    expect(await state(card.id)).toMatchObject({ balance: '500000' });
    expect((await state(card.id)).activities).toHaveLength(0);
  });

  it('accepts an activity and the balance that agree, written in either order', async () => {
    const card = await newCard(500_000);
    const first = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 499000 WHERE id = $1', [card.id]);
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
        [card.id],
      );
    });
    expect(first).toBeNull();
    const second = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -9000, 490000)",
        [card.id],
      );
      await c.query('UPDATE purchased_cards SET balance = 490000 WHERE id = $1', [card.id]);
    });
    expect(second).toBeNull();
    const after = await state(card.id);
    expect(after.balance).toBe('490000');
    expect(after.activities.map((a) => [a.kind, a.amount, a.balance_after])).toEqual([
      ['redeem', '-1000', '499000'],
      ['redeem', '-9000', '490000'],
    ]);
  });
});

describe('the checks read the card’s last activity, not its whole history (0016)', () => {
  async function numbers(id: string): Promise<number[]> {
    const rows = await t.database.pool.query<{ seq: number }>(
      'SELECT seq FROM card_activities WHERE purchased_card_id = $1 ORDER BY created_at',
      [id],
    );
    return rows.rows.map((row) => row.seq);
  }

  it('numbers each card’s activities 1, 2, 3… whatever an insert says', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq) VALUES ($1, 'redeem', -1000, 499000, 1)",
        [card.id],
      );
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq) VALUES ($1, 'redeem', -1000, 498000, 999)",
        [card.id],
      );
      await c.query('UPDATE purchased_cards SET balance = 498000 WHERE id = $1', [card.id]);
    });
    expect(error).toBeNull();
    expect(await numbers(card.id)).toEqual([1, 2]);
    // Still the running sum: the last activity says 498000, so 497000 after 2000 more is refused.
    const wrong = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -2000, 497000)",
        [card.id],
      );
    });
    expect(wrong!.code).toBe('23514');
    expect(wrong!.message).toMatch(/activities sum to 496000/);
  });

  it('a card whose activities were written before the numbering is checked against their sum, then numbered', async () => {
    const card = await newCard(500_000);
    // As before 0016: the card's issue and its spending down to 400000 as activities with no number (seq 0).
    // Written with the triggers skipped, as rows that already exist are; they agree with each other and with
    // the card.
    const seeded = await inTransaction(async (c) => {
      await c.query('SET LOCAL session_replication_role = replica');
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq, created_at) VALUES ($1, 'issue', 500000, 500000, 0, now() - interval '1 minute')",
        [card.id],
      );
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq) VALUES ($1, 'redeem', -100000, 400000, 0)",
        [card.id],
      );
      await c.query('UPDATE purchased_cards SET balance = 400000 WHERE id = $1', [card.id]);
    });
    expect(seeded).toBeNull();
    expect(await numbers(card.id)).toEqual([0, 0]);

    // Against the unnumbered history: a new balance alone is refused at commit with their sum...
    const alone = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 399000 WHERE id = $1', [card.id]);
    });
    expect(alone!.atCommit).toBe(true);
    expect(alone!.message).toMatch(/has balance 399000 but its activities sum to 400000/);
    // ...an activity that does not follow on from their sum is refused...
    const wrong = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
        [card.id],
      );
    });
    expect(wrong!.message).toMatch(/activities sum to 399000/);
    // ...and one that does is numbered 1, and the checks read it from then on.
    const right = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 399000)",
        [card.id],
      );
      await c.query('UPDATE purchased_cards SET balance = 399000 WHERE id = $1', [card.id]);
    });
    expect(right).toBeNull();
    expect(await numbers(card.id)).toEqual([0, 0, 1]);
    const next = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 398000 WHERE id = $1', [card.id]);
    });
    expect(next!.message).toMatch(/has balance 398000 but its activities sum to 399000/);
  });
});

describe('one check at commit for each card (ADR 033)', () => {
  it('a new balance and its activity queue one check, which runs', async () => {
    const card = await newCard(500_000);
    let ran = -1;
    const error = await inTransaction(async (c) => {
      ran = await callsDuring(c, 'purchased_cards_check_balance', async () => {
        await c.query('UPDATE purchased_cards SET balance = 499000 WHERE id = $1', [card.id]);
        await c.query(
          "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
          [card.id],
        );
        await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      });
    });
    expect(error).toBeNull();
    expect(ran).toBe(1);
  });

  it('an activity after the card’s check was queued queues none, and the check at commit reads it', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 499000 WHERE id = $1', [card.id]);
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -2000, 498000)",
        [card.id],
      );
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/has balance 499000 but its activities sum to 498000/);
  });

  it('an activity written after the checks ran (SET CONSTRAINTS … IMMEDIATE) is checked again', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 500000 WHERE id = $1', [card.id]);
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('SET CONSTRAINTS ALL DEFERRED');
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
        [card.id],
      );
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/has balance 500000 but its activities sum to 499000/);
  });

  it('a check that ran in a savepoint rolled back still covers the card', async () => {
    const card = await newCard(500_000);
    const error = await inTransaction(async (c) => {
      await c.query('UPDATE purchased_cards SET balance = 500000 WHERE id = $1', [card.id]);
      await c.query('SAVEPOINT s');
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('ROLLBACK TO SAVEPOINT s');
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after) VALUES ($1, 'redeem', -1000, 499000)",
        [card.id],
      );
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
  });

  it('an issue is a card’s first activity, numbered 1, its balance its amount, one a card', async () => {
    const card = await newCard(500_000);
    // The issue activity a card sold before migration 0029 has (ADR 039).
    const written = await inTransaction(async (c) => {
      await c.query(
        "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq) VALUES ($1, 'issue', 500000, 500000, 1)",
        [card.id],
      );
    });
    expect(written).toBeNull();
    const issue = (seq: number, amount: number, balanceAfter: number) =>
      inTransaction(async (c) => {
        await c.query(
          "INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq) VALUES ($1, 'issue', $2, $3, $4)",
          [card.id, amount, balanceAfter, seq],
        );
      });
    expect(await issue(1, 1000, 1000)).toMatchObject({ atCommit: false, code: '23505' });
    expect(await issue(2, 1000, 501000)).toMatchObject({ atCommit: false, code: '23514' });
    expect(await issue(1, 1000, 2000)).toMatchObject({ atCommit: false, code: '23514' });
    const numbered = await t.database.pool.query<{ kind: string; seq: number }>(
      'SELECT kind, seq FROM card_activities WHERE purchased_card_id = $1',
      [card.id],
    );
    expect(numbered.rows).toEqual([{ kind: 'issue', seq: 1 }]);
  });
});

describe('a card is its own issue (ADR 039)', () => {
  it('a sale writes its card at its whole value and no activity; the holder’s history shows the issue', async () => {
    const seller = await registerAndLogin(t.app, 'business');
    const buyer = await registerAndLogin(t.app, 'user');
    const card = await buyCard(t, buyer, await createDesign(seller, 500_000));
    expect(await state(card.id)).toEqual({ balance: '500000', activities: [] });
    const detail = (
      await buyer.request({ method: 'GET', url: `/api/v1/purchased-cards/${card.id}` })
    ).json() as {
      activities: {
        id: string;
        kind: string;
        amount: { amount: number };
        balanceAfter: { amount: number };
      }[];
    };
    expect(detail.activities.map((a) => [a.id, a.kind, a.amount.amount, a.balanceAfter.amount])).toEqual([
      [card.id, 'issue', 500_000, 500_000],
    ]);
  });

  it('a card inserted at its whole value queues no check; at another balance, it is checked', async () => {
    const card = await newCard(500_000);
    // A copy of the card and of its order, as another sale would write them, at `balance`.
    const copy = async (balance: number) => {
      let ran = -1;
      const error = await inTransaction(async (c) => {
        const { rows } = await c.query<{ id: string }>(
          `INSERT INTO orders
           SELECT (jsonb_populate_record(NULL::orders, to_jsonb(o) || jsonb_build_object(
                    'id', gen_random_uuid(), 'reference', gen_random_uuid()::text, 'idempotency_key', NULL))).*
             FROM orders o WHERE o.id = (SELECT order_id FROM purchased_cards WHERE id = $1)
           RETURNING id`,
          [card.id],
        );
        ran = await callsDuring(c, 'purchased_cards_check_balance', async () => {
          await c.query(
            `INSERT INTO purchased_cards
             SELECT (jsonb_populate_record(NULL::purchased_cards, to_jsonb(p) || jsonb_build_object(
                      'id', gen_random_uuid(), 'order_id', $2::uuid, 'code_hash', gen_random_uuid()::text,
                      'balance', $3::bigint))).*
               FROM purchased_cards p WHERE p.id = $1`,
            [card.id, rows[0]!.id, balance],
          );
          await c.query('SET CONSTRAINTS ALL IMMEDIATE');
        });
      });
      return { error, ran };
    };
    expect(await copy(500_000)).toEqual({ error: null, ran: 0 });
    const other = await copy(400_000);
    expect(other.error).toMatchObject({ code: '23514' });
    expect(other.error!.message).toMatch(/has balance 400000 but its activities sum to 500000/);
  });
});

describe('a card and its order name a design of their own business (ADR 038)', () => {
  it('refuses a card or an order whose business is not its design’s, and keeps the one that is', async () => {
    const card = await newCard();
    const other = await registerAndLogin(t.app, 'business');
    const { rows } = await t.database.pool.query<{ order_id: string; business_id: string }>(
      'SELECT order_id, business_id FROM purchased_cards WHERE id = $1',
      [card.id],
    );
    const { order_id: orderId, business_id: businessId } = rows[0]!;
    for (const [statement, id] of [
      ['UPDATE purchased_cards SET business_id = $2 WHERE id = $1', card.id],
      ['UPDATE orders SET business_id = $2 WHERE id = $1', orderId],
    ] as const) {
      const refused = await inTransaction(async (c) => {
        await c.query(statement, [id, other.account.id]);
      });
      expect(refused, statement).toMatchObject({ atCommit: false, code: '23503' });
      expect(refused!.message, statement).toMatch(/design_of_business_fk/);
      expect(
        await inTransaction(async (c) => {
          await c.query(statement, [id, businessId]);
        }),
        statement,
      ).toBeNull();
    }
    const after = await t.database.pool.query<{ business_id: string }>(
      'SELECT c.business_id FROM purchased_cards c JOIN orders o ON o.id = c.order_id AND o.business_id = c.business_id WHERE c.id = $1',
      [card.id],
    );
    expect(after.rows).toEqual([{ business_id: businessId }]);
  });

  it('the actors’ index holds only activities with an actor (not a sale’s issue), and a look-up by actor uses it', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(
        'PREPARE by_actor AS SELECT id FROM card_activities WHERE actor_id = $1 ORDER BY created_at DESC LIMIT 50',
      );
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN EXECUTE by_actor('00000000-0000-4000-8000-000000000000')",
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/card_activities_actor_idx/);
      const definition = await client.query<{ def: string }>(
        "SELECT pg_get_indexdef('card_activities_actor_idx'::regclass) AS def",
      );
      expect(definition.rows[0]!.def).toMatch(/WHERE \(actor_id IS NOT NULL\)$/);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  });
});
