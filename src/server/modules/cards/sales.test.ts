import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redemption } from '../../../shared/cards/schemas';
import type { RedemptionPage, SalePage, SalesDaily, SalesSummary } from '../../../shared/cards/sales';
import type { StatementLine, StatementPage } from '../../../shared/wallet/statement';
import { buyCard, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';
import { csvCell, csvLine } from '../../lib/csv';

/**
 * The business's figures (issue 13) over /api/v1 on the real PostgreSQL: the sales table and its filters and
 * pages, redemptions, the summary and daily chart, the wallet statement, the CSV exports, and the rule that
 * every figure is a sum over the card activities and ledger rows the money rules wrote.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const get = (who: Account, url: string) => who.request({ method: 'GET', url });

function redeem(seller: Account, payload: Record<string, unknown>) {
  return seller.request({ method: 'POST', url: '/api/v1/redemptions', payload, remoteAddress: freshIp() });
}

async function allPages<T>(who: Account, url: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(who, `${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { items: T[]; nextCursor: string | null };
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}

const lagosToday = () => new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);

/** One business that sold cards of two designs to two buyers, with redemptions (one reversed). */
let seller: Awaited<ReturnType<typeof fundedBusiness>>;
let buyerA: Account;
let buyerB: Account;
const cards: {
  id: string;
  code: string;
  value: number;
  designId: string;
  reference: string;
  buyer: Account;
}[] = [];
let reversedId: string;
beforeAll(async () => {
  seller = await fundedBusiness(t, 0n + 5_000_00n);
  buyerA = await registerAndLogin(t.app, 'user');
  buyerB = await registerAndLogin(t.app, 'user');
  const small = await createDesign(seller, 500_000);
  const big = await createDesign(seller, 2_000_000);
  for (let i = 0; i < 7; i++) {
    const design = i % 3 === 0 ? big : small;
    const buyer = i % 2 === 0 ? buyerA : buyerB;
    const bought = await buyCard(t, buyer, design);
    cards.push({
      id: bought.id,
      code: bought.code,
      value: Number(design.amount.amount),
      designId: design.id,
      reference: bought.order.reference,
      buyer,
    });
  }
  const first = await redeem(seller, { code: cards[1]!.code, amount: 100_000, reference: '=HYPERLINK("x")' });
  expect(first.statusCode, first.body).toBe(201);
  const second = await redeem(seller, { code: cards[2]!.code, all: true });
  expect(second.statusCode, second.body).toBe(201);
  reversedId = (first.json() as Redemption).id;
  const reversal = await seller.request({
    method: 'POST',
    url: `/api/v1/redemptions/${reversedId}/reversal`,
    remoteAddress: freshIp(),
  });
  expect(reversal.statusCode, reversal.body).toBe(201);
  const third = await redeem(seller, { code: cards[1]!.code, amount: 50_000, reference: 'TILL 2' });
  expect(third.statusCode, third.body).toBe(201);
}, 120_000);

/** Minor units as the CSV writes them (naira with two decimals), in integer arithmetic: no floats near money. */
const naira = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

describe('GET /api/v1/sales', () => {
  it('lists every sold card newest first with design, buyer name (no e-mail) and order reference', async () => {
    const res = await get(seller, '/api/v1/sales?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as SalePage;
    expect(page.items.map((s) => s.id)).toEqual([...cards].reverse().map((c) => c.id));
    const sale = page.items.find((s) => s.id === cards[2]!.id)!;
    expect(sale).toMatchObject({
      value: { amount: cards[2]!.value, currency: 'NGN' },
      balance: { amount: 0 },
      status: 'redeemed',
      orderReference: cards[2]!.reference,
      giftCardId: cards[2]!.designId,
    });
    expect(sale.buyerName).toBe(buyerA.input.name);
    expect(res.body).not.toContain(buyerA.input.email);
    expect(res.body).not.toContain(cards[0]!.code);
  });

  it('pages with a keyset cursor without duplicates or gaps', async () => {
    const items = await allPages<SalePage['items'][number]>(seller, '/api/v1/sales', 2);
    expect(items.map((s) => s.id)).toEqual([...cards].reverse().map((c) => c.id));
  });

  it('filters by design, status, dates, last four and order reference', async () => {
    const byDesign = (await get(seller, `/api/v1/sales?giftCardId=${cards[0]!.designId}`)).json() as SalePage;
    expect(byDesign.items.map((s) => s.id).sort()).toEqual(
      cards
        .filter((c) => c.designId === cards[0]!.designId)
        .map((c) => c.id)
        .sort(),
    );
    const redeemed = (await get(seller, '/api/v1/sales?status=redeemed')).json() as SalePage;
    expect(redeemed.items.map((s) => s.id)).toEqual([cards[2]!.id]);
    const today = lagosToday();
    const inRange = (
      await get(seller, `/api/v1/sales?from=${today}&to=${today}&limit=100`)
    ).json() as SalePage;
    expect(inRange.items).toHaveLength(cards.length);
    const later = (await get(seller, '/api/v1/sales?from=2999-01-01')).json() as SalePage;
    expect(later.items).toHaveLength(0);
    const earlier = (await get(seller, '/api/v1/sales?to=2000-01-01')).json() as SalePage;
    expect(earlier.items).toHaveLength(0);
    const last4 = cards[3]!.code.replaceAll('-', '').slice(-5, -1);
    const byLast4 = (await get(seller, `/api/v1/sales?q=${last4.toLowerCase()}`)).json() as SalePage;
    expect(byLast4.items.map((s) => s.id)).toContain(cards[3]!.id);
    const byRef = (
      await get(seller, `/api/v1/sales?q=${cards[4]!.reference.toLowerCase()}`)
    ).json() as SalePage;
    expect(byRef.items.map((s) => s.id)).toEqual([cards[4]!.id]);
  });

  it('refuses bad filters with a 400 in words', async () => {
    for (const query of [
      'from=2026-02-30',
      'from=yesterday',
      'to=2026-13-01',
      'from=2026-05-02&to=2026-05-01',
      'status=lost',
      'giftCardId=nope',
      'limit=1000',
      'limit=0',
      'cursor=bm90LWEtY3Vyc29y',
      'q=%00abc',
      `q=${'9'.repeat(500)}`,
      'q=%3Cscript%3E',
    ]) {
      const res = await get(seller, `/api/v1/sales?${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    for (const url of [
      '/api/v1/sales/daily?days=7',
      '/api/v1/redemptions?from=x',
      '/api/v1/wallet/statement?cursor=%01',
    ]) {
      const res = await get(seller, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
    const csv = await get(seller, '/api/v1/sales.csv?from=2026-02-30');
    expect(csv.statusCode).toBe(400);
    expect(csv.headers['content-type']).toContain('application/json');
    expect(csv.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('keeps GET /sold-cards working on the same query', async () => {
    const res = await get(seller, '/api/v1/sold-cards?limit=3');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { items: { id: string }[] }).items.map((c) => c.id)).toEqual(
      [...cards]
        .reverse()
        .slice(0, 3)
        .map((c) => c.id),
    );
  });
});

describe('who may see the figures', () => {
  const urls = [
    '/api/v1/sales',
    '/api/v1/sales.csv',
    '/api/v1/sales/summary',
    '/api/v1/sales/daily',
    '/api/v1/redemptions',
    '/api/v1/redemptions.csv',
    '/api/v1/wallet/statement',
    '/api/v1/wallet/statement.csv',
  ];
  it('another business sees none of these rows, a user gets 403, nobody signed in 401', async () => {
    const other = await registerAndLogin(t.app, 'business');
    for (const url of urls) {
      const res = await get(other, url);
      expect(res.statusCode, url).toBe(200);
      for (const card of cards) expect(res.body).not.toContain(card.id);
      expect((await get(buyerA, url)).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const summary = (await get(other, '/api/v1/sales/summary')).json() as SalesSummary;
    expect(summary.outstanding.amount).toBe(0);
    expect(summary.soldToday.amount).toBe(0);
  });
});

describe('GET /api/v1/redemptions', () => {
  it('lists the uses at the till newest first, with the reversed one marked, across pages', async () => {
    const items = await allPages<RedemptionPage['items'][number]>(seller, '/api/v1/redemptions', 1);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ amount: { amount: 50_000 }, reference: 'TILL 2', reversed: false });
    const reversed = items.find((r) => r.id === reversedId)!;
    expect(reversed).toMatchObject({
      reversed: true,
      amount: { amount: 100_000 },
      purchasedCardId: cards[1]!.id,
    });
    expect(reversed.reversedAt).not.toBeNull();
    expect(items.map((r) => r.codeLast4)).toContain(cards[2]!.code.replaceAll('-', '').slice(-5, -1));
    const none = (await get(seller, '/api/v1/redemptions?to=2000-01-01')).json() as RedemptionPage;
    expect(none.items).toHaveLength(0);
  });
});

describe('CSV exports', () => {
  it('sales.csv: a header, a line per card, naira with two decimals, an attachment name', async () => {
    const today = lagosToday();
    const res = await get(seller, `/api/v1/sales.csv?from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="sales-${today}-${today}.csv"`);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Sold at,Card id,Design,Value \(NGN\)/);
    expect(lines).toHaveLength(cards.length + 1);
    const line = lines.find((l) => l.includes(cards[0]!.id))!;
    expect(line).toContain(`,${naira(cards[0]!.value)},`);
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);
    expect(res.body).not.toContain(buyerA.input.email);
  });

  it('redemptions.csv guards a reference a spreadsheet would run as a formula', async () => {
    const res = await get(seller, '/api/v1/redemptions.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(`"'=HYPERLINK(""x"")"`);
    expect(res.body).not.toMatch(/,=HYPERLINK/);
    expect(res.body.trimEnd().split('\r\n')).toHaveLength(4);
    expect(res.body).toContain(',1000.00,');
  });

  it('statement.csv: the same lines and running balance as the JSON statement', async () => {
    const res = await get(seller, '/api/v1/wallet/statement.csv');
    expect(res.statusCode, res.body).toBe(200);
    const json = await allPages<StatementLine>(seller, '/api/v1/wallet/statement', 100);
    const lines = res.body.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(json.length);
    expect(lines[0]).toContain(json[0]!.id);
    expect(lines[0]).toContain(`,${naira(json[0]!.balanceAfter.amount)},`);
  });

  it('quotes and guards cells', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    for (const start of ['=', '+', '-', '@', '\t']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell({ csvNumber: '-12.00' })).toBe('-12.00');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});

describe('the figures are sums over the money rows', () => {
  it('after a random mix of sales, redemptions, reversals, refunds and withdrawals', async () => {
    const business = await fundedBusiness(t, 1_000_000n);
    const buyer = await registerAndLogin(t.app, 'user');
    const designs = [await createDesign(business, 300_000), await createDesign(business, 1_250_000)];
    const bought: { id: string; code: string; balance: number; used: boolean }[] = [];
    for (let i = 0; i < 6; i++) {
      const design = designs[randomInt(2)]!;
      const card = await buyCard(t, buyer, design);
      bought.push({ id: card.id, code: card.code, balance: Number(design.amount.amount), used: false });
    }
    const redemptionIds: string[] = [];
    for (let step = 0; step < 14; step++) {
      const roll = randomInt(10);
      const card = bought[randomInt(bought.length)]!;
      if (roll < 5 && card.balance > 0) {
        const res = await redeem(business, { code: card.code, amount: 1 + randomInt(card.balance) });
        if (res.statusCode === 201) redemptionIds.push((res.json() as Redemption).id);
      } else if (roll < 7 && redemptionIds.length > 0) {
        const id = redemptionIds.splice(randomInt(redemptionIds.length), 1)[0]!;
        await business.request({
          method: 'POST',
          url: `/api/v1/redemptions/${id}/reversal`,
          remoteAddress: freshIp(),
        });
      } else if (roll < 8) {
        await business.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/refund` });
      } else {
        await business.request({
          method: 'POST',
          url: '/api/v1/withdrawals',
          payload: { amount: 1 + randomInt(200_000), pin: TEST_PIN },
        });
      }
    }
    const id = business.id;
    const one = async <T>(query: ReturnType<typeof sql>) =>
      (await t.database.db.execute(query)).rows[0] as Record<string, T>;
    // A card's history: its activities, and its issue read from the card when it has no issue activity (a card
    // sold since migration 0029 is its own issue, ADR 039).
    const expected = await one<string>(sql`
      WITH a AS (
        SELECT purchased_card_id, kind::text AS kind, amount FROM card_activities
        UNION ALL
        SELECT c.id, 'issue', c.initial_value FROM purchased_cards c
         WHERE NOT EXISTS (SELECT 1 FROM card_activities i WHERE i.purchased_card_id = c.id AND i.kind = 'issue'))
      SELECT
        (SELECT coalesce(sum(a.amount), 0) FROM a JOIN purchased_cards c ON c.id = a.purchased_card_id
          WHERE c.business_id = ${id} AND c.status IN ('active', 'frozen', 'gift_pending')
            AND (c.expires_at IS NULL OR c.expires_at > now()))::text AS outstanding,
        (SELECT coalesce(sum(a.amount), 0) FROM a JOIN purchased_cards c ON c.id = a.purchased_card_id
          WHERE c.business_id = ${id} AND a.kind = 'issue')::text AS sold,
        (SELECT coalesce(-sum(a.amount), 0) FROM a JOIN purchased_cards c ON c.id = a.purchased_card_id
          WHERE c.business_id = ${id} AND a.kind IN ('redeem', 'reverse'))::text AS redeemed,
        (SELECT coalesce(sum(p.amount), 0) FROM postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
          WHERE la.owner_id = ${id} AND la.kind = 'business_wallet')::text AS wallet
    `);
    const summary = (await get(business, '/api/v1/sales/summary')).json() as SalesSummary;
    expect(summary.outstanding.amount).toBe(Number(expected.outstanding));
    expect(summary.soldToday.amount).toBe(Number(expected.sold));
    expect(summary.soldThisMonth.amount).toBe(Number(expected.sold));
    expect(summary.redeemedToday.amount).toBe(Number(expected.redeemed));
    expect(summary.redeemedThisMonth.amount).toBe(Number(expected.redeemed));
    expect(summary.walletBalance.amount).toBe(Number(expected.wallet));
    const wallet = (await get(business, '/api/v1/wallet')).json() as { balance: { amount: number } };
    expect(summary.walletBalance.amount).toBe(wallet.balance.amount);
    // Independently of SQL: what the test's own cards hold now.
    const held = await Promise.all(
      bought.map(
        async (c) =>
          (await get(buyer, `/api/v1/purchased-cards/${c.id}`)).json() as {
            balance: { amount: number };
            status: string;
          },
      ),
    );
    expect(summary.outstanding.amount).toBe(
      held.filter((c) => c.status === 'active').reduce((sum, c) => sum + c.balance.amount, 0),
    );

    const daily = (await get(business, '/api/v1/sales/daily?days=30')).json() as SalesDaily;
    expect(daily.days).toHaveLength(30);
    expect(daily.days.at(-1)).toMatchObject({
      date: lagosToday(),
      sold: { amount: Number(expected.sold) },
      redeemed: { amount: Number(expected.redeemed) },
    });
    expect(daily.days.slice(0, -1).every((d) => d.sold.amount === 0 && d.redeemed.amount === 0)).toBe(true);
    expect((await get(business, '/api/v1/sales/daily?days=90')).json().days).toHaveLength(90);

    const lines = await allPages<StatementLine>(business, '/api/v1/wallet/statement', 3);
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    expect(lines[0]!.balanceAfter.amount).toBe(wallet.balance.amount);
    const oldestFirst = [...lines].reverse();
    let running = 0;
    for (const line of oldestFirst) {
      running += line.amount.amount;
      expect(line.balanceAfter.amount).toBe(running);
    }
    const postingCount = await one<string>(sql`
      SELECT count(*)::text AS n FROM postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
      WHERE la.owner_id = ${id} AND la.kind = 'business_wallet'`);
    expect(lines).toHaveLength(Number(postingCount.n));
    const page = (await get(business, '/api/v1/wallet/statement')).json() as StatementPage;
    expect(page.balance.amount).toBe(wallet.balance.amount);
    const kinds = new Set(lines.map((l) => l.kind));
    expect(kinds.has('sale')).toBe(true);
    for (const line of lines.filter((l) => l.kind === 'sale' && l.fee)) {
      expect(line.description).toMatch(/platform fee/);
    }
  }, 120_000);
});

describe('at once', () => {
  it('20 summaries, pages and exports in parallel all answer 200 with the same figures', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get(
          seller,
          [
            '/api/v1/sales/summary',
            '/api/v1/sales?limit=5',
            '/api/v1/sales.csv',
            '/api/v1/wallet/statement.csv',
          ][i % 4]!,
        ),
      ),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const summaries = results.filter((_, i) => i % 4 === 0).map((r) => r.body);
    expect(new Set(summaries).size).toBe(1);
  });
});
