import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECKOUT_CANCELLED_REASON,
  type Order,
  type OrderPage,
  type OrderReceipt,
} from '../../../shared/orders/schemas';
import { sandboxSecret } from './payments/payments';
import { signSandbox } from './payments/sandbox.provider';
import { buyCard, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { actOnGift, usernameOf } from '../../../../tests/fixtures/gifts';
import {
  createTestApp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';

/**
 * The buyer's orders and receipts (issue 13): every order with its state in words, newest first a page at a
 * time, only the caller's own; a receipt for a paid order only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

async function place(buyer: Account, giftCardId: string, gift?: Record<string, unknown>): Promise<Order> {
  const res = await buyer.request({
    method: 'POST',
    url: '/api/v1/orders',
    payload: gift ? { giftCardId, gift } : { giftCardId },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Order;
}

async function webhook(order: Order, event: 'payment.succeeded' | 'payment.failed', reason?: string) {
  const raw = JSON.stringify({
    event,
    data: {
      reference: order.reference,
      amount: String(order.amount.amount),
      currency: order.amount.currency,
      ...(reason ? { reason } : {}),
    },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/sandbox/webhook',
    headers: {
      'content-type': 'application/json',
      'x-sandbox-signature': signSandbox(sandboxSecret(t.config), raw),
    },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function list(buyer: Account, query = ''): Promise<OrderPage> {
  const res = await buyer.request({ method: 'GET', url: `/api/v1/orders${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OrderPage;
}

/** A buyer with one order in each state, oldest first: paid, pending, failed, cancelled, refunded. */
async function buyerWithEveryState() {
  const seller = await registerAndLogin(t.app, 'business');
  const buyer = await registerAndLogin(t.app, 'user');
  const design = await createDesign(seller, 250_000);
  const paid = await buyCard(t, buyer, design);
  const pending = await place(buyer, design.id);
  const failed = await place(buyer, design.id);
  await webhook(
    failed,
    'payment.failed',
    'The card was declined. No money was taken and no gift card was issued.',
  );
  const cancelled = await place(buyer, design.id);
  await webhook(cancelled, 'payment.failed', CHECKOUT_CANCELLED_REASON);
  const refunded = await buyCard(t, buyer, design);
  const refund = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${refunded.id}/refund` });
  expect(refund.statusCode, refund.body).toBe(200);
  return { seller, buyer, design, paid, pending, failed, cancelled, refunded };
}

describe('GET /api/v1/orders', () => {
  it('lists every order newest first with its state in words, its design and what to do next', async () => {
    const { buyer, design, paid, pending, failed, cancelled, refunded } = await buyerWithEveryState();
    const { items, nextCursor } = await list(buyer);
    expect(nextCursor).toBeNull();
    expect(items.map((o) => [o.id, o.status])).toEqual([
      [refunded.order.id, 'refunded'],
      [cancelled.id, 'cancelled'],
      [failed.id, 'failed'],
      [pending.id, 'pending'],
      [paid.order.id, 'paid'],
    ]);
    const byId = new Map(items.map((o) => [o.id, o]));
    expect(byId.get(paid.order.id)).toMatchObject({
      reference: paid.order.reference,
      amount: { amount: 250_000, currency: 'NGN' },
      design: { giftCardId: design.id, uniqueId: design.uniqueId, colour: '#1a2b3c' },
      purchasedCardId: paid.id,
      checkoutUrl: null,
      failureReason: null,
      gift: null,
      paidAt: expect.any(String),
      refundedAt: null,
    });
    expect(byId.get(pending.id)).toMatchObject({
      checkoutUrl: pending.checkoutUrl,
      purchasedCardId: null,
      paidAt: null,
    });
    expect(pending.checkoutUrl).toBeTruthy();
    expect(byId.get(failed.id)).toMatchObject({
      failureReason: 'The card was declined. No money was taken and no gift card was issued.',
      checkoutUrl: null,
    });
    expect(byId.get(cancelled.id)).toMatchObject({ failureReason: CHECKOUT_CANCELLED_REASON });
    expect(byId.get(refunded.order.id)).toMatchObject({ refundedAt: expect.any(String) });
  });

  it('filters by state, and pages with a keyset cursor that neither skips nor repeats', async () => {
    const { buyer, paid, refunded, failed, cancelled, pending } = await buyerWithEveryState();
    for (const [status, ids] of [
      ['paid', [paid.order.id]],
      ['pending', [pending.id]],
      ['failed', [failed.id]],
      ['cancelled', [cancelled.id]],
      ['refunded', [refunded.order.id]],
    ] as const) {
      const page = await list(buyer, `?status=${status}`);
      expect(
        page.items.map((o) => o.id),
        status,
      ).toEqual(ids);
      expect(page.items.every((o) => o.status === status)).toBe(true);
    }

    const all = (await list(buyer)).items.map((o) => o.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: OrderPage = await list(buyer, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((o) => o.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);

    // A cursor with a filter stays inside it.
    const failedOnes = await list(buyer, '?status=failed&limit=1');
    expect(failedOnes.nextCursor).toBeNull();
  });

  it('shows a gift order with its recipient, and no card link once the gift is accepted', async () => {
    const seller = await registerAndLogin(t.app, 'business');
    const buyer = await registerAndLogin(t.app, 'user');
    const friend = await registerAndLogin(t.app, 'user');
    const design = await createDesign(seller, 100_000);
    const order = await place(buyer, design.id, { recipient: usernameOf(friend), recipientName: 'Ada' });
    await webhook(order, 'payment.succeeded');
    let [item] = (await list(buyer)).items;
    expect(item).toMatchObject({
      status: 'paid',
      gift: { recipient: usernameOf(friend), recipientName: 'Ada', giftId: expect.any(String) },
    });
    // While the gift waits the card is still the buyer's.
    expect(item!.purchasedCardId).toEqual(expect.any(String));
    const accepted = await actOnGift(t, friend, item!.gift!.giftId!, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    [item] = (await list(buyer)).items;
    expect(item!.purchasedCardId).toBeNull();
    // The friend never sees the buyer's order.
    expect((await list(friend)).items).toEqual([]);
  });

  it('never shows another account’s orders; a business is 403 and no session 401', async () => {
    const { buyer } = await buyerWithEveryState();
    const stranger = await registerAndLogin(t.app, 'user');
    expect((await list(stranger)).items).toEqual([]);
    // Another buyer's cursor gives nothing of theirs either.
    const page = await list(buyer, '?limit=1');
    const after = await list(stranger, `?cursor=${page.nextCursor}`);
    expect(after.items).toEqual([]);

    const business = await registerAndLogin(t.app, 'business');
    const asBusiness = await business.request({ method: 'GET', url: '/api/v1/orders' });
    expect(asBusiness.statusCode).toBe(403);
    expect(asBusiness.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: sameOrigin });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers 400 { code, message } to bad parameters', async () => {
    const buyer = await registerAndLogin(t.app, 'user');
    const validCursor = Buffer.from(`2026-01-01T00:00:00.000000Z|${randomUUID()}`).toString('base64url');
    expect((await list(buyer, `?cursor=${validCursor}`)).items).toEqual([]);
    for (const query of [
      '?status=shipped',
      '?status=PAID',
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?cursor=not-a-cursor',
      `?cursor=${'x'.repeat(201)}`,
      `?cursor=${Buffer.from('2026-02-30T00:00:00.000000Z|x').toString('base64url')}`,
      '?status=%00',
      '?cursor=%00',
    ]) {
      const res = await buyer.request({ method: 'GET', url: `/api/v1/orders${query}` });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
  });

  it('answers the same to 20 parallel requests', async () => {
    const { buyer } = await buyerWithEveryState();
    const pages = await Promise.all(Array.from({ length: 20 }, () => list(buyer)));
    expect(new Set(pages.map((p) => JSON.stringify(p))).size).toBe(1);
  });
});

describe('GET /api/v1/orders/:id/receipt', () => {
  it('gives a paid order’s receipt with its buyer, and none for an order not paid', async () => {
    const { buyer, paid, pending, failed, refunded } = await buyerWithEveryState();
    const res = await buyer.request({ method: 'GET', url: `/api/v1/orders/${paid.order.id}/receipt` });
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json() as OrderReceipt;
    expect(receipt).toMatchObject({
      id: paid.order.id,
      status: 'paid',
      reference: paid.order.reference,
      amount: { amount: 250_000, currency: 'NGN' },
      buyer: { name: buyer.input.name, email: buyer.input.email },
      paidAt: expect.any(String),
    });
    const wasRefunded = await buyer.request({
      method: 'GET',
      url: `/api/v1/orders/${refunded.order.id}/receipt`,
    });
    expect(wasRefunded.json()).toMatchObject({ status: 'refunded' });
    for (const id of [pending.id, failed.id]) {
      const none = await buyer.request({ method: 'GET', url: `/api/v1/orders/${id}/receipt` });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('is 404 for another account’s order, 403 for a business and 401 without a session', async () => {
    const { paid } = await buyerWithEveryState();
    const url = `/api/v1/orders/${paid.order.id}/receipt`;
    const stranger = await registerAndLogin(t.app, 'user');
    const theirs = await stranger.request({ method: 'GET', url });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain(paid.order.reference);
    const business = await registerAndLogin(t.app, 'business');
    expect((await business.request({ method: 'GET', url })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url, headers: sameOrigin })).statusCode).toBe(401);
    const bad = await stranger.request({ method: 'GET', url: '/api/v1/orders/nope/receipt' });
    expect(bad.statusCode).toBe(400);
  });
});
