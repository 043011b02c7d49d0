import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/orders/schemas';
import type { SoldCard } from '../../../shared/cards/schemas';
import { makeNuban } from '../../../shared/wallet/banks';
import { buyCard, cardOf, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { bankAccounts } from '../../db/schema/wallet';

/**
 * A business refunds an unused card (issue 10): the card is voided and its code dies, one balanced ledger
 * entry takes the sale (wallet share and platform fee) back out, the order is refunded and the buyer told.
 * Refused, saying why, when the card was used, is older than 30 days, or the wallet no longer holds its
 * share; exactly one of a refund and a redemption racing on one card wins; retries and parallel refunds
 * move the money once. A 2.5 % platform fee makes "exactly reverses the sale" mean more than one posting.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0', PLATFORM_FEE_BPS: '250' });
});
afterAll(() => t.close());

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');
const PIN = '2580';

async function soldCard(amount = 1_000_000) {
  const seller = await business();
  const buyer = await user();
  const card = await buyCard(t, buyer, await createDesign(seller, amount));
  return { seller, buyer, card };
}

function refund(seller: Account, id: string, key?: string) {
  return seller.request({
    method: 'POST',
    url: `/api/v1/sold-cards/${id}/refund`,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

function redeem(seller: Account, payload: Record<string, unknown>, key?: string) {
  return seller.request({
    method: 'POST',
    url: '/api/v1/redemptions',
    payload,
    remoteAddress: freshIp(),
    headers: key ? { 'idempotency-key': key } : {},
  });
}

async function walletBalance(seller: Account): Promise<number> {
  const res = await seller.request({ method: 'GET', url: '/api/v1/wallet' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().balance.amount as number;
}

async function orderStatus(buyer: Account, orderId: string): Promise<Order['status']> {
  return ((await buyer.request({ method: 'GET', url: `/api/v1/orders/${orderId}` })).json() as Order).status;
}

/** The refund entries of an order, and whether each (and the sale with it) balances. */
async function ledgerOf(orderId: string) {
  const entries = await t.database.pool.query<{ id: string; kind: string; reference: string; total: string }>(
    `SELECT e.id, e.kind, e.reference, sum(p.amount)::text AS total
     FROM journal_entries e JOIN postings p ON p.entry_id = e.id
     WHERE e.reference IN ($1, $2) GROUP BY e.id`,
    [`order:${orderId}`, `refund:order:${orderId}`],
  );
  const perAccount = await t.database.pool.query<{ ledger_account_id: string; total: string }>(
    `SELECT p.ledger_account_id, sum(p.amount)::text AS total
     FROM journal_entries e JOIN postings p ON p.entry_id = e.id
     WHERE e.reference IN ($1, $2) GROUP BY p.ledger_account_id`,
    [`order:${orderId}`, `refund:order:${orderId}`],
  );
  return {
    refunds: entries.rows.filter((e) => e.reference.startsWith('refund:')),
    sales: entries.rows.filter((e) => e.reference.startsWith('order:')),
    unbalanced: entries.rows.filter((e) => e.total !== '0'),
    netPerAccount: perAccount.rows.map((r) => r.total),
  };
}

async function notificationCount(accountId: string, kind: string): Promise<number> {
  const { rows } = await t.database.pool.query(
    'SELECT count(*)::int AS n FROM notifications WHERE account_id = $1 AND kind = $2',
    [accountId, kind],
  );
  return rows[0].n as number;
}

async function cardRow(id: string) {
  const { rows } = await t.database.pool.query('SELECT balance, status FROM purchased_cards WHERE id = $1', [
    id,
  ]);
  return rows[0] as { balance: string; status: string };
}

async function lookUpStatus(seller: Account, code: string) {
  return (
    await seller.request({
      method: 'POST',
      url: '/api/v1/card-lookups',
      payload: { code },
      remoteAddress: freshIp(),
    })
  ).statusCode;
}

async function balanceCheckStatus(code: string) {
  return (
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/balance-checks',
      payload: { code },
      remoteAddress: freshIp(),
    })
  ).statusCode;
}

describe('POST /api/v1/sold-cards/:id/refund', () => {
  it('refunds an unused card: void, balance 0, order refunded, the sale exactly reversed, buyer told, code dead', async () => {
    const seller = await business();
    const buyer = await user();
    const design = await createDesign(seller, 1_000_000);
    const before = await walletBalance(seller);
    expect(before).toBe(0);
    const card = await buyCard(t, buyer, design);
    expect(await walletBalance(seller)).toBe(975_000);
    const view = (
      await seller.request({ method: 'GET', url: `/api/v1/sold-cards/${card.id}` })
    ).json() as SoldCard;
    expect(view.refundableUntil).not.toBeNull();

    const res = await refund(seller, card.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: card.id,
      status: 'void',
      balance: { amount: 0 },
      refundableUntil: null,
    });
    expect(await cardRow(card.id)).toEqual({ balance: '0', status: 'void' });
    expect(await orderStatus(buyer, card.order.id)).toBe('refunded');
    expect(await walletBalance(seller)).toBe(before);

    const ledger = await ledgerOf(card.order.id);
    expect(ledger.sales).toHaveLength(1);
    expect(ledger.refunds).toHaveLength(1);
    expect(ledger.refunds[0]!.kind).toBe('refund');
    expect(ledger.unbalanced).toEqual([]);
    // Every account the sale touched (clearing, wallet, platform revenue) is back where it was.
    expect(ledger.netPerAccount).toHaveLength(3);
    expect(ledger.netPerAccount.every((total) => total === '0')).toBe(true);

    const { rows } = await t.database.pool.query(
      "SELECT title, body FROM notifications WHERE account_id = $1 AND kind = 'card_refunded'",
      [buyer.account.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toContain('₦10,000.00');

    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('void');
    expect(held.activities.map((a) => [a.kind, a.amount.amount, a.balanceAfter.amount])).toEqual([
      ['issue', 1_000_000, 1_000_000],
      ['refund', -1_000_000, 0],
    ]);
    expect(held.activities[1]!.placeName).toBe(seller.input.name);

    // The code is dead everywhere.
    expect(await lookUpStatus(seller, card.code)).toBe(404);
    expect(await balanceCheckStatus(card.code)).toBe(404);
    const spend = await redeem(seller, { code: card.code, amount: 100 });
    expect(spend.statusCode).toBe(404);
    expect(spend.json()).toMatchObject({ code: 'CARD_CODE_NOT_FOUND' });

    const twice = await refund(seller, card.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
    expect(twice.json().message).toMatch(/already refunded/);
  });

  it('refuses a card that has been used, even after the use was reversed, with words', async () => {
    const { seller, card } = await soldCard(500_000);
    const used = await redeem(seller, { code: card.code, amount: 1_000 });
    expect(used.statusCode).toBe(201);
    const res = await refund(seller, card.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
    expect(res.json().message).toMatch(/used/);

    await seller.request({ method: 'POST', url: `/api/v1/redemptions/${used.json().id}/reversal` });
    const afterReversal = await refund(seller, card.id);
    expect(afterReversal.statusCode).toBe(409);
    expect(afterReversal.json().message).toMatch(/used/);
    expect(await cardRow(card.id)).toEqual({ balance: '500000', status: 'active' });
    expect((await ledgerOf(card.order.id)).refunds).toEqual([]);
  });

  it('refuses when the wallet no longer holds the sale’s share, saying both amounts, and changes nothing', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    // The business withdraws most of the sale: set a PIN, a default bank account, and withdraw.
    const pin = await seller.request({
      method: 'POST',
      url: '/api/v1/wallet/pin',
      payload: { pin: PIN, confirmPin: PIN },
    });
    expect(pin.statusCode, pin.body).toBe(201);
    await t.database.db.insert(bankAccounts).values({
      businessId: seller.account.id,
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumber: makeNuban('058', String(100000000 + Math.floor(Math.random() * 899999999))),
      accountName: 'TEST HOLDER',
      isDefault: true,
    });
    const withdrawn = await seller.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 900_000, pin: PIN },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    expect(await walletBalance(seller)).toBe(75_000);

    const res = await refund(seller, card.id, randomUUID());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'REFUND_NOT_ALLOWED',
      details: { walletBalance: 75_000, needed: 975_000 },
    });
    expect(res.json().message).toContain('₦750.00');
    expect(res.json().message).toContain('₦9,750.00');

    // Nothing changed: card, order, ledger, wallet, notifications, the code.
    expect(await cardRow(card.id)).toEqual({ balance: '1000000', status: 'active' });
    expect(await orderStatus(buyer, card.order.id)).toBe('paid');
    expect((await ledgerOf(card.order.id)).refunds).toEqual([]);
    expect(await walletBalance(seller)).toBe(75_000);
    expect(await notificationCount(buyer.account.id, 'card_refunded')).toBe(0);
    expect((await cardOf(buyer, card.id)).activities.map((a) => a.kind)).toEqual(['issue']);
    expect(await lookUpStatus(seller, card.code)).toBe(200);
    expect((await redeem(seller, { code: card.code, amount: 100 })).statusCode).toBe(201);
  });

  it('refuses a card sold more than 30 days ago', async () => {
    const { seller, buyer, card } = await soldCard(200_000);
    await t.database.pool.query(
      "UPDATE purchased_cards SET created_at = now() - interval '31 days' WHERE id = $1",
      [card.id],
    );
    const view = (
      await seller.request({ method: 'GET', url: `/api/v1/sold-cards/${card.id}` })
    ).json() as SoldCard;
    expect(view.refundableUntil).toBeNull();
    const res = await refund(seller, card.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
    expect(res.json().message).toMatch(/30 days/);
    expect(await cardRow(card.id)).toEqual({ balance: '200000', status: 'active' });
    expect(await orderStatus(buyer, card.order.id)).toBe('paid');
  });

  it('a refund racing a redemption on the same card: exactly one wins, and the books agree', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const { seller, buyer, card } = await soldCard(600_000);
      // Alternate which request is sent first.
      const [refunded, redeemed] =
        round % 2
          ? await Promise.all([refund(seller, card.id), redeem(seller, { code: card.code, amount: 100_000 })])
          : await Promise.all([
              redeem(seller, { code: card.code, amount: 100_000 }),
              refund(seller, card.id),
            ]).then(([a, b]) => [b, a] as const);
      const ledger = await ledgerOf(card.order.id);
      expect(ledger.unbalanced).toEqual([]);
      if (refunded!.statusCode === 200) {
        outcomes.add('refund');
        expect([404, 409]).toContain(redeemed!.statusCode);
        expect(await cardRow(card.id)).toEqual({ balance: '0', status: 'void' });
        expect(ledger.refunds).toHaveLength(1);
        expect(await walletBalance(seller)).toBe(0);
        expect(await orderStatus(buyer, card.order.id)).toBe('refunded');
        expect((await cardOf(buyer, card.id)).activities.map((a) => a.kind)).toEqual(['issue', 'refund']);
      } else {
        outcomes.add('redeem');
        expect(refunded!.statusCode, refunded!.body).toBe(409);
        expect(refunded!.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
        expect(redeemed!.statusCode, redeemed!.body).toBe(201);
        expect(await cardRow(card.id)).toEqual({ balance: '500000', status: 'active' });
        expect(ledger.refunds).toEqual([]);
        expect(await walletBalance(seller)).toBe(585_000);
        expect(await orderStatus(buyer, card.order.id)).toBe('paid');
      }
    }
    expect(outcomes.size).toBeGreaterThanOrEqual(1);
  });

  it('replays a retry with the same Idempotency-Key: the same answer, one ledger entry, one notification', async () => {
    const { seller, buyer, card } = await soldCard(300_000);
    const key = randomUUID();
    const first = await refund(seller, card.id, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await refund(seller, card.id, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await ledgerOf(card.order.id)).refunds).toHaveLength(1);
    expect(await notificationCount(buyer.account.id, 'card_refunded')).toBe(1);
    expect(await walletBalance(seller)).toBe(0);
  });

  it('refuses an Idempotency-Key already used for another card’s refund or for a redemption (409, nothing moved)', async () => {
    const seller = await business();
    const buyer = await user();
    const design = await createDesign(seller, 100_000);
    const first = await buyCard(t, buyer, design);
    const second = await buyCard(t, buyer, design);
    const third = await buyCard(t, buyer, design);
    const key = randomUUID();
    expect((await refund(seller, first.id, key)).statusCode).toBe(200);
    const reused = await refund(seller, second.id, key);
    expect(reused.statusCode, reused.body).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await cardRow(second.id)).toEqual({ balance: '100000', status: 'active' });
    expect((await ledgerOf(second.order.id)).refunds).toEqual([]);

    const redeemKey = randomUUID();
    expect((await redeem(seller, { code: third.code, amount: 100 }, redeemKey)).statusCode).toBe(201);
    const crossed = await refund(seller, second.id, redeemKey);
    expect(crossed.statusCode, crossed.body).toBe(409);
    expect(crossed.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await cardRow(second.id)).toEqual({ balance: '100000', status: 'active' });
    // And the refund's key cannot redeem.
    const backwards = await redeem(seller, { code: third.code, amount: 100 }, key);
    expect(backwards.statusCode).toBe(409);
    expect(backwards.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });

    // One new key on two cards' refunds at once: one refund, one conflict, never a 500.
    const fourth = await buyCard(t, buyer, design);
    const fifth = await buyCard(t, buyer, design);
    const shared = randomUUID();
    const both = await Promise.all([refund(seller, fourth.id, shared), refund(seller, fifth.id, shared)]);
    expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    const statuses = [(await cardRow(fourth.id)).status, (await cardRow(fifth.id)).status].sort();
    expect(statuses).toEqual(['active', 'void']);
  });

  it('10 refunds at once move the money once (with and without an Idempotency-Key)', async () => {
    for (const withKey of [false, true]) {
      const { seller, buyer, card } = await soldCard(400_000);
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => refund(seller, card.id, withKey ? key : undefined)),
      );
      for (const r of results) expect(r.statusCode).toBeLessThan(500);
      if (withKey) {
        expect(results.every((r) => r.statusCode === 200)).toBe(true);
      } else {
        expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
        const refused = results.filter((r) => r.statusCode === 409);
        expect(refused).toHaveLength(9);
        for (const r of refused) expect(r.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
      }
      const ledger = await ledgerOf(card.order.id);
      expect(ledger.refunds).toHaveLength(1);
      expect(ledger.unbalanced).toEqual([]);
      expect(await walletBalance(seller)).toBe(0);
      expect(await notificationCount(buyer.account.id, 'card_refunded')).toBe(1);
      expect((await cardOf(buyer, card.id)).activities.map((a) => a.kind)).toEqual(['issue', 'refund']);
    }
  });
});
