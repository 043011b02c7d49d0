import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementLine, StatementPage } from '../../../shared/wallet/statement';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { encodeCursor, encodeLedgerCursor } from '../../lib/cursor';
import { ensurePlatformAccount } from './ledger.repository';
import { openWallet } from './wallet.service';

/**
 * The wallet statement's pages (issue 14): lines in the ledger's order (transaction, then posting), each with
 * the balance after it counted down from the wallet's balance, in any view: by page, by day, or whole.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
/** Today in the platform's time zone (Lagos, UTC+1), as the statement's from/to read it. */
const lagosDay = (at: Date) => new Date(at.getTime() + 60 * 60 * 1000).toISOString().slice(0, 10);

/** A signed-in business whose wallet `move` changes, one entry per transaction, dated `at`. */
async function business() {
  const signedIn = await registerAndLogin(t.app, 'business');
  const { wallet, clearing } = await t.database.db.transaction(async (tx) => ({
    wallet: await openWallet(tx, signedIn.account.id, 'NGN'),
    clearing: await ensurePlatformAccount(tx, 'payment_clearing', 'NGN'),
  }));
  const move = async (amount: number, at = new Date()): Promise<string> => {
    const { rows } = await t.database.pool.query<{ id: string; ledger_account_id: string }>(
      `WITH e AS (INSERT INTO journal_entries (kind, reference, created_at) VALUES ('sale', $1, $2) RETURNING id)
       INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
       SELECT e.id, l.account, l.amount, 'NGN' FROM e, unnest($3::uuid[], $4::bigint[]) AS l(account, amount)
       RETURNING id, ledger_account_id`,
      [`test:${randomUUID()}`, at.toISOString(), [wallet, clearing], [amount, -amount]],
    );
    return rows.find((r) => r.ledger_account_id === wallet)!.id;
  };
  const page = async (query = '') => {
    const res = await signedIn.request({ method: 'GET', url: `/api/v1/wallet/statement${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as StatementPage;
  };
  const pages = async (query: string, limit: number) => {
    const lines: StatementLine[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const next: StatementPage = await page(
        `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(next.items.length).toBeLessThanOrEqual(limit);
      lines.push(...next.items);
      cursor = next.nextCursor;
      if (!cursor) return lines;
    }
    throw new Error('too many pages');
  };
  return { ...signedIn, move, page, pages };
}

describe('the wallet statement', () => {
  it('pages through every line once, newest first, each balance the one above it less that one’s amount', async () => {
    const b = await business();
    const amounts = [50_000, 120_000, -30_000, 7_500, 99, 2_000_000, -1_000_000, 1, 640, 33_333, 12, 8];
    const written: string[] = [];
    for (const amount of amounts) written.push(await b.move(amount));
    const total = amounts.reduce((sum, a) => sum + a, 0);

    const lines = await b.pages('', 5);
    expect(lines.map((l) => l.id)).toEqual([...written].reverse());
    expect(lines.map((l) => l.amount.amount)).toEqual([...amounts].reverse());
    expect(lines[0]!.balanceAfter.amount).toBe(total);
    lines.forEach((line, i) => {
      if (i > 0) {
        expect(line.balanceAfter.amount).toBe(
          lines[i - 1]!.balanceAfter.amount - lines[i - 1]!.amount.amount,
        );
      }
    });
    expect(lines.at(-1)!.balanceAfter.amount).toBe(amounts[0]);
    const first = await b.page('?limit=5');
    expect(first.balance.amount).toBe(total);
    const wallet = await b.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json().balance.amount).toBe(total);
    // The same lines and balances one at a time as twelve at once.
    expect(await b.pages('', 1)).toEqual(lines);
    expect((await b.page('?limit=100')).items).toEqual(lines);
  });

  it('a day’s view keeps each line’s balance, counting the lines of other days written between and after', async () => {
    const b = await business();
    const now = new Date();
    const daysAgo = new Date(now.getTime() - 3 * DAY_MS);
    // In the ledger's order: today, three days ago, today, three days ago. Their entries' dates and their
    // transactions' order disagree, as a day's edge can make them.
    const a = await b.move(1_000, now);
    await b.move(300, daysAgo);
    const c = await b.move(50, now);
    await b.move(7, daysAgo);

    const whole = await b.pages('', 10);
    expect(whole.map((l) => l.balanceAfter.amount)).toEqual([1_357, 1_350, 1_300, 1_000]);
    const today = lagosDay(now);
    const day = await b.pages(`&from=${today}&to=${today}`, 10);
    expect(day.map((l) => l.id)).toEqual([c, a]);
    expect(day.map((l) => l.balanceAfter.amount)).toEqual([1_350, 1_000]);
    // By page too: the line under the cursor counts the line of another day between them.
    expect(await b.pages(`&from=${today}&to=${today}`, 1)).toEqual(day);
    const before = lagosDay(daysAgo);
    const other = await b.pages(`&from=${before}&to=${before}`, 1);
    expect(other.map((l) => l.balanceAfter.amount)).toEqual([1_357, 1_300]);
  });

  it('a business with no wallet yet has no lines and a balance of 0', async () => {
    const signedIn = await registerAndLogin(t.app, 'business');
    const res = await signedIn.request({ method: 'GET', url: '/api/v1/wallet/statement' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ items: [], nextCursor: null, balance: { amount: 0 } });
  });

  it('a cursor not given out is refused in words, never a 500; another wallet’s cursor shows only your lines', async () => {
    const b = await business();
    await b.move(500);
    await b.move(700);
    const id = randomUUID();
    const refused = [
      encodeCursor({ cursorTime: '2026-01-01T00:00:00.000000Z', id }), // the time-ordered cursor of before
      encodeLedgerCursor({ xact: '18446744073709551616', id }), // one above xid8's largest
      encodeLedgerCursor({ xact: '1'.repeat(21), id }),
      Buffer.from(`x12|${id}\u0000`).toString('base64url'),
      Buffer.from(`x-1|${id}`).toString('base64url'),
      Buffer.from(`x1e3|${id}`).toString('base64url'),
      Buffer.from(`x12|not-a-uuid`).toString('base64url'),
      'x'.repeat(200),
    ];
    for (const cursor of refused) {
      const res = await b.request({
        method: 'GET',
        url: `/api/v1/wallet/statement?cursor=${encodeURIComponent(cursor)}`,
      });
      expect(res.statusCode, `${cursor}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/cursor/),
      });
    }
    // The largest transaction id there can be is a cursor above every line: the whole statement.
    const top = await b.page(
      `?cursor=${encodeLedgerCursor({ xact: '18446744073709551615', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' })}`,
    );
    expect(top.items.map((l) => l.amount.amount)).toEqual([700, 500]);

    // Another wallet's line as the cursor: only this wallet's lines below it, never the other's.
    const other = await business();
    const theirs = await other.move(9);
    const { rows } = await t.database.pool.query<{ xact: string }>(
      'SELECT xact::text AS xact FROM postings WHERE id = $1',
      [theirs],
    );
    const under = await b.page(`?cursor=${encodeLedgerCursor({ xact: rows[0]!.xact, id: theirs })}`);
    expect(under.items.map((l) => l.amount.amount)).toEqual([700, 500]);
  });
});
