import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PurchasedCardDetail, Redemption, SoldCard } from '../../../shared/cards/schemas';
import { buyCard, cardOf, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * Issue 10's rules around a redemption that redemptions.test.ts does not cover: block and unblock by the
 * business, who may call which route, freeze and block sent 20 times at once, a reversal after 24 hours,
 * the holder's history under concurrency, and the look-up, redemption and balance-check limits in parallel.
 * Every test makes its own accounts and cards on the shared real PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0', BALANCE_CHECKS_PER_MINUTE_PER_IP: '5' });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');

async function soldCard(amount = 1_000_000) {
  const seller = await business();
  const buyer = await user();
  const card = await buyCard(t, buyer, await createDesign(seller, amount));
  return { seller, buyer, card };
}

function redeem(seller: Account, payload: Record<string, unknown>, ip = freshIp()) {
  return seller.request({ method: 'POST', url: '/api/v1/redemptions', payload, remoteAddress: ip });
}

function lookUp(seller: Account, code: string, ip = freshIp()) {
  return seller.request({
    method: 'POST',
    url: '/api/v1/card-lookups',
    payload: { code },
    remoteAddress: ip,
  });
}

function block(seller: Account, id: string, reason?: string) {
  return seller.request({
    method: 'POST',
    url: `/api/v1/sold-cards/${id}/block`,
    payload: reason === undefined ? {} : { reason },
  });
}

async function cardRow(id: string) {
  const { rows } = await t.database.pool.query(
    'SELECT balance, status, blocked_reason FROM purchased_cards WHERE id = $1',
    [id],
  );
  return rows[0] as { balance: string; status: string; blocked_reason: string | null };
}

/** Each activity's balance after is the one before plus its amount, in the order the holder sees them. */
function expectRunningBalance(detail: PurchasedCardDetail) {
  let balance = 0;
  for (const activity of detail.activities) {
    balance += activity.amount.amount;
    expect(activity.balanceAfter.amount, `${activity.kind} ${activity.id}`).toBe(balance);
  }
  expect(detail.balance.amount).toBe(balance);
}

describe('blocking a sold card (lost or stolen)', () => {
  it('refuses redemption with words while blocked, the holder sees it, and unblocking lets it be spent', async () => {
    const { seller, buyer, card } = await soldCard(500_000);
    const blocked = await block(seller, card.id, 'Reported lost by the holder');
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ id: card.id, status: 'blocked', balance: { amount: 500_000 } });
    expect((blocked.json() as SoldCard).recentActivities[0]).toMatchObject({
      kind: 'block',
      amount: { amount: 0 },
      balanceAfter: { amount: 500_000 },
      reference: 'Reported lost by the holder',
      placeName: seller.input.name,
    });

    const refused = await redeem(seller, { code: card.code, amount: 1_000 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CARD_NOT_REDEEMABLE', details: { status: 'blocked' } });
    expect(refused.json().message).toMatch(/blocked/);
    expect(refused.json().message).toContain('Reported lost by the holder');
    const all = await redeem(seller, { code: card.code, all: true });
    expect(all.statusCode).toBe(409);

    // The till still finds it, and says it is blocked.
    const looked = await lookUp(seller, card.code);
    expect(looked.statusCode).toBe(200);
    expect(looked.json()).toMatchObject({ status: 'blocked' });

    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('blocked');
    expect(held.balance.amount).toBe(500_000);
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'block']);
    expect(held.activities[1]).toMatchObject({
      reference: 'Reported lost by the holder',
      placeName: seller.input.name,
    });
    const told = await t.database.pool.query(
      "SELECT title, body FROM notifications WHERE account_id = $1 AND kind = 'card_blocked'",
      [buyer.account.id],
    );
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0].body).toContain('Reported lost by the holder');

    // Blocking twice is refused; the holder cannot unfreeze their way out of a block.
    const again = await block(seller, card.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT' });
    const unfreeze = await buyer.request({
      method: 'POST',
      url: `/api/v1/purchased-cards/${card.id}/unfreeze`,
    });
    expect(unfreeze.statusCode).toBe(409);

    const unblocked = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` });
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    expect(unblocked.json()).toMatchObject({ status: 'active' });
    expect(await cardRow(card.id)).toMatchObject({ status: 'active', blocked_reason: null });
    const spent = await redeem(seller, { code: card.code, amount: 1_000 });
    expect(spent.statusCode, spent.body).toBe(201);
    const after = await cardOf(buyer, card.id);
    expect(after.activities.map((a) => a.kind)).toEqual(['issue', 'block', 'unblock', 'redeem']);
    expectRunningBalance(after);

    const notBlocked = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` });
    expect(notBlocked.statusCode).toBe(409);
    expect(notBlocked.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT' });
  });

  it('blocks a card without a reason, and a frozen card too (the block wins until unblocked)', async () => {
    const { seller, buyer, card } = await soldCard(300_000);
    const bare = await block(seller, card.id);
    expect(bare.statusCode, bare.body).toBe(200);
    const refused = await redeem(seller, { code: card.code, amount: 1 });
    expect(refused.json().message).toMatch(/blocked/);
    await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` });

    expect(
      (await buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` })).statusCode,
    ).toBe(200);
    const blockedFrozen = await block(seller, card.id, 'stolen');
    expect(blockedFrozen.statusCode, blockedFrozen.body).toBe(200);
    expect(blockedFrozen.json()).toMatchObject({ status: 'blocked' });
    // Unblocking gives back the holder's own freeze: the card is frozen again, not spendable.
    const unblocked = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` });
    expect(unblocked.json()).toMatchObject({ status: 'frozen' });
    expect((await redeem(seller, { code: card.code, amount: 1 })).json().message).toMatch(/frozen/);
  });

  it('cannot block a card that is used up', async () => {
    const { seller, card } = await soldCard(100_000);
    expect((await redeem(seller, { code: card.code, all: true })).statusCode).toBe(201);
    const res = await block(seller, card.id, 'lost');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT', details: { status: 'redeemed' } });
  });

  it('only the business that sold it may block it: another business 404, a user 403, no session 401', async () => {
    const { seller, buyer, card } = await soldCard();
    const stranger = await business();
    for (const action of ['block', 'unblock', 'refund']) {
      const foreign = await stranger.request({
        method: 'POST',
        url: `/api/v1/sold-cards/${card.id}/${action}`,
      });
      expect(foreign.statusCode, `${action} ${foreign.body}`).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
      const asUser = await buyer.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/${action}` });
      expect(asUser.statusCode, action).toBe(403);
      expect(asUser.json()).toMatchObject({ code: 'FORBIDDEN' });
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `/api/v1/sold-cards/${card.id}/${action}`,
      });
      expect(anonymous.statusCode, action).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    const foreignView = await stranger.request({ method: 'GET', url: `/api/v1/sold-cards/${card.id}` });
    expect(foreignView.statusCode).toBe(404);
    const list = (await stranger.request({ method: 'GET', url: '/api/v1/sold-cards' })).json();
    expect(list.items).toEqual([]);
    expect(await cardRow(card.id)).toMatchObject({ status: 'active' });
    const own = await seller.request({
      method: 'GET',
      url: `/api/v1/sold-cards?q=${card.code.slice(-6, -2)}`,
    });
    expect(own.json().items.map((c: SoldCard) => c.id)).toEqual([card.id]);
  });

  it('a user cannot use the till, and nobody can without a session', async () => {
    const { buyer, card } = await soldCard();
    const routes: [string, string, unknown][] = [
      ['POST', '/api/v1/card-lookups', { code: card.code }],
      ['POST', '/api/v1/redemptions', { code: card.code, amount: 100 }],
      ['GET', `/api/v1/redemptions/${randomUUID()}`, undefined],
      ['POST', `/api/v1/redemptions/${randomUUID()}/reversal`, undefined],
      ['GET', '/api/v1/sold-cards', undefined],
      ['GET', `/api/v1/sold-cards/${card.id}`, undefined],
    ];
    for (const [method, url, payload] of routes) {
      const asUser = await buyer.request({ method: method as 'GET', url, payload: payload as object });
      expect(asUser.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await t.app.inject({ method: method as 'GET', url, payload: payload as object });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    // And a business is not a holder: the holder's routes are for users.
    const seller = await business();
    for (const action of ['freeze', 'unfreeze']) {
      const res = await seller.request({
        method: 'POST',
        url: `/api/v1/purchased-cards/${card.id}/${action}`,
      });
      expect(res.statusCode).toBe(403);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `/api/v1/purchased-cards/${card.id}/${action}`,
      });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await cardRow(card.id)).balance).toBe('1000000');
  });
});

describe('freeze and block sent 20 times at once', () => {
  it('freezes once: one 200 and 19 "already" answers, one freeze activity', async () => {
    const { buyer, card } = await soldCard();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.statusCode === 409);
    expect(conflicts).toHaveLength(19);
    for (const r of conflicts) expect(r.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT' });
    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('frozen');
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'freeze']);

    const unfrozen = await Promise.all(
      Array.from({ length: 20 }, () =>
        buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/unfreeze` }),
      ),
    );
    expect(unfrozen.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(unfrozen.filter((r) => r.statusCode === 409)).toHaveLength(19);
    expect((await cardOf(buyer, card.id)).activities.map((a) => a.kind)).toEqual([
      'issue',
      'freeze',
      'unfreeze',
    ]);
  });

  it('another user cannot freeze someone else’s card (404), and a bad id is a 400', async () => {
    const { card } = await soldCard();
    const other = await user();
    const res = await other.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await cardRow(card.id)).toMatchObject({ status: 'active' });
    const bad = await other.request({ method: 'POST', url: '/api/v1/purchased-cards/not-a-uuid/freeze' });
    expect(bad.statusCode).toBe(400);
  });

  it('blocks once: one 200 and 19 conflicts, one block activity and one notification', async () => {
    const { seller, buyer, card } = await soldCard();
    const results = await Promise.all(Array.from({ length: 20 }, () => block(seller, card.id, 'lost')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    expect((await cardOf(buyer, card.id)).activities.map((a) => a.kind)).toEqual(['issue', 'block']);
    const told = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM notifications WHERE account_id = $1 AND kind = 'card_blocked'",
      [buyer.account.id],
    );
    expect(told.rows[0].n).toBe(1);
  });

  it('a freeze racing redemptions: every redemption before the freeze counts, none after it', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => redeem(seller, { code: card.code, amount: 10_000 })),
      buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` }),
      ...Array.from({ length: 10 }, () => redeem(seller, { code: card.code, amount: 10_000 })),
    ]);
    const redemptions = results.filter((_, i) => i !== 10);
    expect(results[10]!.statusCode).toBe(200);
    for (const r of redemptions) expect([201, 409]).toContain(r.statusCode);
    const taken = redemptions.filter((r) => r.statusCode === 201).length;
    const held = await cardOf(buyer, card.id);
    expect(held.balance.amount).toBe(1_000_000 - taken * 10_000);
    expectRunningBalance(held);
    const kinds = held.activities.map((a) => a.kind);
    // Nothing was redeemed after the freeze.
    expect(kinds.slice(kinds.indexOf('freeze') + 1)).toEqual([]);
  });
});

describe('the holder’s history', () => {
  it('lists every activity in the order it happened, each balance after following from the one before, even at 20 tills at once', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => redeem(seller, { code: card.code, amount: 10_000 + i })),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    const held = await cardOf(buyer, card.id);
    expect(held.activities).toHaveLength(21);
    expectRunningBalance(held);
    // The business's receipts agree with the holder's history.
    for (const r of results) {
      const receipt = r.json() as Redemption;
      const entry = held.activities.find((a) => a.id === receipt.id)!;
      expect(entry.balanceAfter.amount).toBe(receipt.balanceAfter.amount);
    }
  });
});

describe('reversal window', () => {
  it('refuses to reverse a redemption older than 24 hours (REVERSAL_NOT_ALLOWED) and leaves the card as it was', async () => {
    const { seller, buyer, card } = await soldCard(400_000);
    const receipt = (await redeem(seller, { code: card.code, amount: 100_000 })).json() as Redemption;
    expect(receipt.reversibleUntil).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 3600 * 1000);
    const late = await seller.request({ method: 'POST', url: `/api/v1/redemptions/${receipt.id}/reversal` });
    const view = await seller.request({ method: 'GET', url: `/api/v1/redemptions/${receipt.id}` });
    vi.useRealTimers();
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: 'REVERSAL_NOT_ALLOWED' });
    expect(late.json().message).toMatch(/24 hours/);
    expect((view.json() as Redemption).reversibleUntil).toBeNull();
    const held = await cardOf(buyer, card.id);
    expect(held.balance.amount).toBe(300_000);
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'redeem']);

    // Just inside the window it still works.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 23 * 3600 * 1000);
    const inTime = await seller.request({
      method: 'POST',
      url: `/api/v1/redemptions/${receipt.id}/reversal`,
    });
    vi.useRealTimers();
    expect(inTime.statusCode, inTime.body).toBe(201);
    expect((await cardOf(buyer, card.id)).balance.amount).toBe(400_000);
  });

  it('a reversal itself cannot be reversed, and a reversal replays with its Idempotency-Key', async () => {
    const { seller, card } = await soldCard(400_000);
    const receipt = (await redeem(seller, { code: card.code, amount: 100_000 })).json() as Redemption;
    const key = randomUUID();
    const send = () =>
      seller.request({
        method: 'POST',
        url: `/api/v1/redemptions/${receipt.id}/reversal`,
        headers: { 'idempotency-key': key },
      });
    const [first, second] = await Promise.all([send(), send()]);
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 201]);
    expect(first!.json().id).toBe(second!.json().id);
    const reversal = first!.json() as Redemption;
    expect(reversal).toMatchObject({
      kind: 'reverse',
      amount: { amount: 100_000 },
      balanceAfter: { amount: 400_000 },
    });
    const ofReversal = await seller.request({
      method: 'POST',
      url: `/api/v1/redemptions/${reversal.id}/reversal`,
    });
    expect(ofReversal.statusCode).toBe(404);
    expect((await cardRow(card.id)).balance).toBe('400000');
  });
});

describe('limits, counted in parallel', () => {
  it('the public balance check: of 12 at once from one IP over a limit of 5, exactly 5 are answered', async () => {
    const { card } = await soldCard();
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/balance-checks',
          payload: { code: i % 2 ? card.code : '0000-0000-0000-0000-0' },
          remoteAddress: ip,
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200 || r.statusCode === 404)).toHaveLength(5);
    const limited = results.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(7);
    expect(limited[0]!.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited[0]!.json().message).toMatch(/Try again in/);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another IP has its own budget.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/balance-checks',
      payload: { code: card.code },
      remoteAddress: freshIp(),
    });
    expect(other.statusCode).toBe(200);
  });

  it('a business’s budget is shared by look-ups and redemptions: of 20 + 20 at once over 30, exactly 30 pass', async () => {
    const { seller, card } = await soldCard(10_000_000);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => lookUp(seller, card.code)),
      ...Array.from({ length: 20 }, () => redeem(seller, { code: card.code, amount: 1_000 })),
    ]);
    const passed = results.filter((r) => r.statusCode === 200 || r.statusCode === 201);
    expect(passed).toHaveLength(30);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(10);
    const redeemed = results.slice(20).filter((r) => r.statusCode === 201).length;
    expect((await cardRow(card.id)).balance).toBe(String(10_000_000 - redeemed * 1_000));
    // Another business is not held back by it.
    const other = await business();
    expect((await lookUp(other, card.code)).statusCode).toBe(404);
  });

  it('one IP’s budget is shared by every business behind it (a limit of 100 a minute)', async () => {
    const ip = freshIp();
    const sellers = await Promise.all(Array.from({ length: 4 }, () => business()));
    const results = await Promise.all(
      sellers.flatMap((seller) =>
        Array.from({ length: 28 }, () => lookUp(seller, '0000-0000-0000-0000-0', ip)),
      ),
    );
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(100);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(12);
  });
});
