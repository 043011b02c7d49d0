import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsDuring, inTransaction as inTransactionOn } from '../../../../tests/fixtures/transactions';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * ADR 033 (migration 0026): a transaction queues one check at commit for each journal entry it writes or adds
 * postings to, not one for each posting; since ADR 040 (migration 0030), one for up to 63 entries. A posting whose entry's check is already queued queues none; the
 * queued check reads the entry as it is at commit, so a posting written later in the transaction is still
 * checked. Raw SQL on one connection, each case in its own transaction.
 */
let t: TestApp;
let a: string;
let b: string;

beforeAll(async () => {
  t = await createTestApp();
  const wallet = async () => {
    const { account } = await registerAndLogin(t.app, 'business');
    const { rows } = await t.database.pool.query<{ id: string }>(
      "SELECT id FROM ledger_accounts WHERE owner_id = $1 AND kind = 'business_wallet'",
      [account.id],
    );
    return rows[0]!.id;
  };
  [a, b] = [await wallet(), await wallet()];
});
afterAll(() => t.close());

/** Runs `work` in one transaction on the test app's pool (see the fixture). */
const inTransaction = (work: (client: pg.PoolClient) => Promise<void>) =>
  inTransactionOn(t.database.pool, work);

/** A journal entry and its postings in one statement, as the app writes them; answers the entry's id. */
async function entry(c: pg.PoolClient, postings: [string, number][]): Promise<string> {
  const { rows } = await c.query<{ id: string }>(
    `WITH e AS (INSERT INTO journal_entries (kind, reference) VALUES ('test', $1) RETURNING id),
          p AS (INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
                SELECT e.id, l.account, l.amount, 'NGN' FROM e, unnest($2::uuid[], $3::bigint[]) AS l(account, amount))
     SELECT id FROM e`,
    [`test:${randomUUID()}`, postings.map(([account]) => account), postings.map(([, amount]) => amount)],
  );
  return rows[0]!.id;
}

const post = (c: pg.PoolClient, entryId: string, account: string, amount: number) =>
  c.query("INSERT INTO postings (entry_id, ledger_account_id, amount, currency) VALUES ($1, $2, $3, 'NGN')", [
    entryId,
    account,
    amount,
  ]);

describe('one check at commit for each entry', () => {
  it('an entry and its three postings queue one check, which runs', async () => {
    let ran = -1;
    const error = await inTransaction(async (c) => {
      ran = await callsDuring(c, 'ledger_check_entry', async () => {
        await entry(c, [
          [a, 100],
          [b, -60],
          [b, -40],
        ]);
        await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      });
    });
    expect(error).toBeNull();
    expect(ran).toBe(1);
  });

  it('the entries of one transaction queue one check (ADR 040), which checks each and refuses a wrong one', async () => {
    const entries = async (c: pg.PoolClient, wrongAt: number | undefined) => {
      for (let i = 0; i < 13; i += 1)
        await entry(c, [
          [a, 10],
          [b, i === wrongAt ? -7 : -10],
        ]);
    };
    let ran = -1;
    const right = await inTransaction(async (c) => {
      ran = await callsDuring(c, 'ledger_check_entry', async () => {
        await entries(c, undefined);
        await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      });
    });
    expect(right).toBeNull();
    expect(ran).toBe(1);
    const wrong = await inTransaction(async (c) => {
      ran = await callsDuring(c, 'ledger_check_entry', async () => {
        await entries(c, 6);
        await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      });
    });
    expect(wrong).toMatchObject({ atCommit: false, code: '23514' });
    expect(wrong!.message).toMatch(/does not balance: 3 NGN off/);
    // Once the check has run, the next entry queues another.
    const again = await inTransaction(async (c) => {
      await entries(c, undefined);
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('SET CONSTRAINTS ALL DEFERRED');
      await entry(c, [[a, 5]]);
    });
    expect(again).toMatchObject({ atCommit: true, code: '23514' });
    expect(again!.message).toMatch(/does not balance: 5 NGN off/);
  });

  it('a posting that unbalances an entry in a later statement queues no check of its own, and is refused at commit', async () => {
    const error = await inTransaction(async (c) => {
      const id = await entry(c, [
        [a, 100],
        [b, -100],
      ]);
      await post(c, id, a, 5);
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/does not balance: 5 NGN off/);
  });

  it('a posting written after the checks ran (SET CONSTRAINTS … IMMEDIATE) is checked again', async () => {
    const error = await inTransaction(async (c) => {
      const id = await entry(c, [
        [a, 100],
        [b, -100],
      ]);
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('SET CONSTRAINTS ALL DEFERRED');
      await post(c, id, b, -7);
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/does not balance: -7 NGN off/);
  });

  it('a check that ran in a savepoint rolled back is queued again, and still covers the entry', async () => {
    const error = await inTransaction(async (c) => {
      const id = await entry(c, [
        [a, 100],
        [b, -100],
      ]);
      await c.query('SAVEPOINT s');
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('ROLLBACK TO SAVEPOINT s');
      await post(c, id, a, 3);
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/does not balance: 3 NGN off/);
  });

  it('postings added to an entry of an earlier transaction are checked', async () => {
    let id = '';
    expect(
      await inTransaction(async (c) => {
        id = await entry(c, [
          [a, 100],
          [b, -100],
        ]);
      }),
    ).toBeNull();
    const error = await inTransaction(async (c) => {
      await post(c, id, a, 1);
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    // Balanced again by a second posting in the same transaction: the one check at commit reads both.
    expect(
      await inTransaction(async (c) => {
        await post(c, id, a, 1);
        await post(c, id, b, -1);
      }),
    ).toBeNull();
  });

  it('an entry in two currencies passes when each sums to zero, and is refused with the one that does not', async () => {
    const twoCurrencies = (usd: [number, number]) =>
      inTransaction(async (c) => {
        await c.query(
          `WITH e AS (INSERT INTO journal_entries (kind, reference) VALUES ('test', $1) RETURNING id)
           INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
           SELECT e.id, l.account, l.amount, l.currency
             FROM e, (VALUES ($2::uuid, 100, 'NGN'), ($3::uuid, -100, 'NGN'), ($2::uuid, $4::bigint, 'USD'),
                             ($3::uuid, $5::bigint, 'USD')) AS l(account, amount, currency)`,
          [`test:${randomUUID()}`, a, b, ...usd],
        );
      });
    expect(await twoCurrencies([5, -5])).toBeNull();
    const error = await twoCurrencies([5, -3]);
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/does not balance: 2 USD off/);
  });

  it('many entries in one transaction: each is checked, past the 63 the transaction remembers', async () => {
    const error = await inTransaction(async (c) => {
      const ids: string[] = [];
      for (let i = 0; i < 70; i += 1)
        ids.push(
          await entry(c, [
            [a, 10],
            [b, -10],
          ]),
        );
      // The transaction no longer remembers the first entry's key (it keeps the last 63): its posting queues a
      // second check of it, and either refuses.
      await post(c, ids[0]!, a, 2);
    });
    expect(error).toMatchObject({ atCommit: true, code: '23514' });
    expect(error!.message).toMatch(/does not balance: 2 NGN off/);
  });
});
