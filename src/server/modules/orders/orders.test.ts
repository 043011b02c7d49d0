import { randomInt, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCode } from '../../../shared/cards/codes';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import type { Order } from '../../../shared/orders/schemas';
import type { PurchasedCardDetail, PurchasedCardPage } from '../../../shared/cards/schemas';
import { SOLD_COUNT } from '../../../../tests/fixtures/cards';
import { DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';
import {
  createTestApp,
  freshIp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';
import type { PaymentProvider, StartPayment } from './payments/payment-provider';
import { sandboxSecret } from './payments/payments';
import { deliverDueSandboxWebhooks, SANDBOX_TEST_CARDS, signSandbox } from './payments/sandbox.provider';
import { createCodeVault } from '../cards/code-vault';
import { soldCountsAdded } from '../catalogue/catalogue.service';
import { saleEntries, saleEntryValuesOf } from '../wallet/wallet.service';
import { isSaleRefused, salesStatement } from './orders.repository';

/**
 * Buying a gift card over /api/v1 against the real PostgreSQL: the order, the sandbox checkout form, the
 * signed webhook that alone completes the order, and what it leaves behind (the purchased card and its
 * secret code, one balanced ledger entry, the wallet, the sold count, notifications). Replays, refused
 * confirmations, Idempotency-Key retries and concurrent buyers must never move money twice or lose any.
 * Every test makes its own business and users; the database is shared with other files running at once.
 */
let t: TestApp;
let secret: string;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
  secret = sandboxSecret(t.config);
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}-[0-9A-HJKMNP-TV-Z]$/;
const PAY = '4084084084084081';
const DECLINED = '4000000000000002';
const INSUFFICIENT = '4000000000009995';

const business = (app: TestApp = t) => registerAndLogin(app.app, 'business');
const user = (app: TestApp = t) => registerAndLogin(app.app, 'user');

async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query(sql, params)).rows as T[];
}

async function createCard(owner: Account, amount = 500_000): Promise<GiftCard> {
  const res = await owner.request({
    method: 'POST',
    url: '/api/v1/gift-cards',
    payload: { amount, colour: '#1a2b3c' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as GiftCard;
}

function postOrder(buyer: Account, giftCardId: string, key?: string) {
  return buyer.request({
    method: 'POST',
    url: '/api/v1/orders',
    payload: { giftCardId },
    headers: key ? { 'idempotency-key': key } : {},
  });
}

async function startOrder(buyer: Account, giftCardId: string): Promise<Order> {
  const res = await postOrder(buyer, giftCardId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Order;
}

/** The buyer submits the sandbox's hosted checkout form (no session cookie: it is the provider's page). */
function checkout(app: TestApp, order: Order, cardNumber = PAY, action: 'pay' | 'cancel' = 'pay') {
  return app.app.inject({
    method: 'POST',
    url: order.checkoutUrl!,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ cardNumber, expiry: '12/30', cvv: '408', action }).toString(),
  });
}

/** The sandbox's webhook body for an order, as the sandbox builds it; `data` overrides its fields. */
function confirmation(
  order: Order,
  event: 'payment.succeeded' | 'payment.failed' = 'payment.succeeded',
  data: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    event,
    data: {
      reference: order.reference,
      amount: String(order.amount.amount),
      currency: order.amount.currency,
      ...data,
    },
  });
}

/** POSTs a webhook body, signed with the sandbox secret unless a signature (or null: none) is given. */
function sendWebhook(app: TestApp, raw: string, signature: string | null = signSandbox(secret, raw)) {
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/payments/sandbox/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-sandbox-signature': signature }),
    },
    payload: raw,
  });
}

const confirm = (order: Order, app: TestApp = t) => sendWebhook(app, confirmation(order));

/**
 * Runs the sandbox's own webhook sender (what the server's worker does) with app.inject as the transport,
 * until the webhook of `reference` has been delivered. Other due webhooks go out on the way; they are
 * real confirmations of earlier tests' payments, answered 200.
 */
async function deliverSandboxWebhook(app: TestApp, reference: string): Promise<number[]> {
  const statuses: number[] = [];
  const deliver = async (rawBody: string, signature: string) => {
    const res = await sendWebhook(app, rawBody, signature);
    statuses.push(res.statusCode);
    return res.statusCode;
  };
  for (let round = 0; round < 50; round += 1) {
    await deliverDueSandboxWebhooks({ db: app.database.db, secret: sandboxSecret(app.config), deliver });
    const [row] = (
      await app.database.pool.query(
        'SELECT webhook_delivered_at FROM sandbox_payments WHERE reference = $1',
        [reference],
      )
    ).rows as { webhook_delivered_at: Date | null }[];
    if (row?.webhook_delivered_at) return statuses;
  }
  throw new Error(`the sandbox webhook of ${reference} was never delivered`);
}

/** order → checkout form → the sandbox's signed webhook: the order as the buyer then sees it. */
async function buy(buyer: Account, card: GiftCard, app: TestApp = t): Promise<Order> {
  const res = await buyer.request({
    method: 'POST',
    url: '/api/v1/orders',
    payload: { giftCardId: card.id },
  });
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json() as Order;
  const paid = await checkout(app, order);
  expect(paid.statusCode, paid.body).toBe(303);
  await deliverSandboxWebhook(app, order.reference);
  return getOrder(buyer, order.id);
}

async function getOrder(buyer: Account, id: string): Promise<Order> {
  const res = await buyer.request({ method: 'GET', url: `/api/v1/orders/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Order;
}

async function walletAmount(owner: Account): Promise<number> {
  const res = await owner.request({ method: 'GET', url: '/api/v1/wallet' });
  expect(res.statusCode, res.body).toBe(200);
  const { balance } = res.json() as { balance: { amount: number; currency: string } };
  expect(balance.currency).toBe('NGN');
  return balance.amount;
}

async function revealCode(owner: Account, purchasedCardId: string): Promise<LightMyRequestResponse> {
  return owner.request({ method: 'POST', url: `/api/v1/purchased-cards/${purchasedCardId}/code` });
}

/** What a sale of `orderId` left in the database. */
async function traces(orderId: string) {
  const [order] = await query<{ status: string; failure_reason: string | null; paid_at: Date | null }>(
    'SELECT status, failure_reason, paid_at FROM orders WHERE id = $1',
    [orderId],
  );
  const cards = await query<{ id: string }>('SELECT id FROM purchased_cards WHERE order_id = $1', [orderId]);
  const entries = await query<{ id: string }>('SELECT id FROM journal_entries WHERE reference = $1', [
    `order:${orderId}`,
  ]);
  return { order, cards, entries };
}

async function unbalancedEntries(): Promise<unknown[]> {
  return query('SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount) <> 0');
}

/** Postings of one journal entry by ledger account kind (minor units as strings). */
async function postingsOf(reference: string) {
  return query<{ kind: string; owner_id: string | null; amount: string; currency: string }>(
    `SELECT la.kind, la.owner_id, p.amount::text AS amount, p.currency
       FROM postings p
       JOIN journal_entries je ON je.id = p.entry_id
       JOIN ledger_accounts la ON la.id = p.ledger_account_id
      WHERE je.reference = $1
      ORDER BY la.kind`,
    [reference],
  );
}

/** Sales as read with their journal entries alone (no cards, no news), built once like the app's. */
const entriesAsRead = salesStatement('orders_test_entries_as_read', {
  ctes: [saleEntries.ctes],
  written: saleEntries.written,
  addToSoldCounts: soldCountsAdded(),
  asRead: true,
});

describe('buying a gift card, end to end', () => {
  it('order → checkout → signed webhook: the buyer owns a card with a secret code, the business is paid', async () => {
    const seller = await business();
    const card = await createCard(seller, 1_250_050);
    const buyer = await user();
    const walletBefore = await walletAmount(seller);
    expect(walletBefore).toBe(0);

    const created = await postOrder(buyer, card.id);
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Order;
    expect(order).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reference: expect.stringMatching(/^GM-[0-9A-F]{20}$/),
      giftCardId: card.id,
      businessName: seller.input.name,
      status: 'pending',
      amount: { amount: 1_250_050, currency: 'NGN' },
      checkoutUrl: expect.stringMatching(/^\/checkout\/[0-9a-f-]{36}$/),
      purchasedCardId: null,
      giftId: null,
      failureReason: null,
      createdAt: expect.any(String),
    });

    // The sandbox's hosted page shows the amount and the test cards.
    const page = await t.app.inject({ method: 'GET', url: order.checkoutUrl! });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('₦12,500.50');
    expect(page.body).toContain(SANDBOX_TEST_CARDS.success);

    const paidForm = await checkout(t, order);
    expect(paidForm.statusCode).toBe(303);
    expect(paidForm.headers.location).toBe(`/user-dashboard/orders/${order.id}`);

    const statuses = await deliverSandboxWebhook(t, order.reference);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const paid = await getOrder(buyer, order.id);
    expect(paid.status).toBe('paid');
    expect(paid.failureReason).toBeNull();
    expect(paid.purchasedCardId).toMatch(/^[0-9a-f-]{36}$/);
    const cardId = paid.purchasedCardId!;

    // My Gift Cards lists it at its full value.
    const list = await buyer.request({ method: 'GET', url: '/api/v1/purchased-cards' });
    expect(list.statusCode, list.body).toBe(200);
    const { items, nextCursor } = list.json() as PurchasedCardPage;
    expect(nextCursor).toBeNull();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: cardId,
      giftCardId: card.id,
      uniqueId: card.uniqueId,
      businessId: seller.account.id,
      businessName: seller.input.name,
      colour: '#1a2b3c',
      initialValue: { amount: 1_250_050, currency: 'NGN' },
      balance: { amount: 1_250_050, currency: 'NGN' },
      status: 'active',
      expiresAt: null,
      codeLast4: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{4}$/),
    });

    // Its detail has one activity: the issue, with the balance after it.
    const detail = await buyer.request({ method: 'GET', url: `/api/v1/purchased-cards/${cardId}` });
    expect(detail.statusCode, detail.body).toBe(200);
    const { activities, ...summary } = detail.json() as PurchasedCardDetail;
    expect(summary).toEqual(items[0]);
    expect(activities).toEqual([
      {
        id: expect.any(String),
        kind: 'issue',
        amount: { amount: 1_250_050, currency: 'NGN' },
        balanceAfter: { amount: 1_250_050, currency: 'NGN' },
        reference: null,
        placeName: null,
        reversed: false,
        createdAt: expect.any(String),
      },
    ]);

    // The code: formatted, its last four are the ones shown, it passes its check, and it is the one looked up.
    const revealed = await revealCode(buyer, cardId);
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    const { code } = revealed.json() as { code: string };
    expect(code).toMatch(CODE);
    const body = code.replace(/-/g, '').slice(0, 16);
    expect(body.slice(-4)).toBe(items[0]!.codeLast4);
    expect(parseCode(code)).toEqual({ ok: true, body });
    const again = (await revealCode(buyer, cardId)).json() as { code: string };
    expect(again.code).toBe(code);
    const [stored] = await query<{ code_hash: string }>(
      'SELECT code_hash FROM purchased_cards WHERE id = $1',
      [cardId],
    );
    expect(stored!.code_hash).toBe(createCodeVault(t.config.CODE_ENCRYPTION_KEY).hash(body));

    // The money: exactly the amount in the wallet, by one balanced entry.
    expect(await walletAmount(seller)).toBe(walletBefore + 1_250_050);
    expect(await postingsOf(`order:${order.id}`)).toEqual([
      { kind: 'business_wallet', owner_id: seller.account.id, amount: '1250050', currency: 'NGN' },
      { kind: 'payment_clearing', owner_id: null, amount: '-1250050', currency: 'NGN' },
    ]);

    // The gift card sold one more.
    const after = await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${card.id}` });
    expect((after.json() as GiftCard).soldCount).toBe(card.soldCount + 1);

    // Both sides are told.
    const notes = await query<{ account_id: string; kind: string; link: string | null; body: string }>(
      `SELECT account_id, kind, link, body FROM notifications
        WHERE account_id = ANY($1::uuid[]) AND kind IN ('card_bought', 'card_sold') ORDER BY kind`,
      [[buyer.account.id, seller.account.id]],
    );
    expect(notes).toEqual([
      {
        account_id: buyer.account.id,
        kind: 'card_bought',
        link: `/user-dashboard/mycards/${cardId}`,
        body: expect.stringContaining('₦12,500.50'),
      },
      {
        account_id: seller.account.id,
        kind: 'card_sold',
        link: '/dashboard/wallet',
        body: expect.stringContaining('₦12,500.50'),
      },
    ]);

    // The old client's business login shows the new balance in naira.
    const legacy = await t.app.inject({
      method: 'POST',
      url: '/api/loginbusiness',
      payload: { email: seller.input.email, password: DEFAULT_PASSWORD },
      remoteAddress: freshIp(),
    });
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect((legacy.json() as { data: { Balance: number } }).data.Balance).toBe(12_500.5);
  });

  it('the browser coming back from the checkout never completes an order by itself', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);

    const returned = await checkout(t, order);
    expect(returned.statusCode).toBe(303);
    // The buyer lands on the return address and reloads the order: still waiting for the confirmation.
    const seen = await getOrder(buyer, order.id);
    expect(seen).toMatchObject({ status: 'pending', purchasedCardId: null });
    const state = await traces(order.id);
    expect(state.order).toMatchObject({ status: 'pending', paid_at: null });
    expect(state.cards).toEqual([]);
    expect(state.entries).toEqual([]);
    expect(await walletAmount(seller)).toBe(0);
    const mine = (await buyer.request({ method: 'GET', url: '/api/v1/purchased-cards' })).json();
    expect(mine).toEqual({ items: [], sentGifts: [], nextCursor: null });

    // Paying the form again does not help either; the sandbox page now says the payment is finished.
    expect((await checkout(t, order)).statusCode).toBe(303);
    const page = await t.app.inject({ method: 'GET', url: order.checkoutUrl! });
    expect(page.body).toContain('This payment is finished');
    expect((await traces(order.id)).cards).toEqual([]);
  });

  it.each([
    ['a declined card', DECLINED, 'The card was declined. No money was taken and no gift card was issued.'],
    [
      'a card with insufficient funds',
      INSUFFICIENT,
      'The card has insufficient funds. No money was taken and no gift card was issued.',
    ],
  ])('%s fails the order with a reason, issues no card and moves no money', async (_name, number, reason) => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);

    expect((await checkout(t, order, number)).statusCode).toBe(303);
    await deliverSandboxWebhook(t, order.reference);

    const failed = await getOrder(buyer, order.id);
    expect(failed).toMatchObject({ status: 'failed', failureReason: reason, purchasedCardId: null });
    const state = await traces(order.id);
    expect(state.cards).toEqual([]);
    expect(state.entries).toEqual([]);
    expect(await walletAmount(seller)).toBe(0);
    const after = (await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${card.id}` })).json();
    expect((after as GiftCard).soldCount).toBe(0);
    const notes = await query('SELECT id FROM notifications WHERE account_id = $1 AND kind = $2', [
      buyer.account.id,
      'card_bought',
    ]);
    expect(notes).toEqual([]);
  });

  it('a cancelled checkout fails the order and issues nothing', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    expect((await checkout(t, order, '', 'cancel')).statusCode).toBe(303);
    await deliverSandboxWebhook(t, order.reference);
    expect(await getOrder(buyer, order.id)).toMatchObject({
      status: 'failed',
      failureReason: 'You cancelled the payment. No money was taken.',
    });
    expect((await traces(order.id)).cards).toEqual([]);
  });

  it('a card number that is not a test card shows the form again and schedules nothing', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    const res = await checkout(t, order, '4111111111111111');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('pay with one of the test cards');
    const [row] = await query<{ status: string; webhook_next_at: Date | null }>(
      'SELECT status, webhook_next_at FROM sandbox_payments WHERE reference = $1',
      [order.reference],
    );
    expect(row).toEqual({ status: 'pending', webhook_next_at: null });
  });

  it('a failed confirmation after the order was paid changes nothing', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const paid = await buy(buyer, card);
    expect(paid.status).toBe('paid');
    const res = await sendWebhook(t, confirmation(paid, 'payment.failed', { reason: 'late decline' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'already-paid' });
    expect(await getOrder(buyer, paid.id)).toMatchObject({ status: 'paid', failureReason: null });
    expect(await walletAmount(seller)).toBe(500_000);
  });
});

describe('who may buy and see what', () => {
  it('a business cannot start an order (403)', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const other = await business();
    for (const who of [seller, other]) {
      const res = await postOrder(who, card.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a user can do this.' });
    }
    expect(await query('SELECT id FROM orders WHERE gift_card_id = $1', [card.id])).toEqual([]);
  });

  it("someone else's order, purchased card and code are 404; the seller cannot read them either", async () => {
    const seller = await business();
    const card = await createCard(seller);
    const owner = await user();
    const paid = await buy(owner, card);
    const cardId = paid.purchasedCardId!;
    const stranger = await user();

    for (const res of [
      await stranger.request({ method: 'GET', url: `/api/v1/orders/${paid.id}` }),
      await stranger.request({ method: 'GET', url: `/api/v1/purchased-cards/${cardId}` }),
      await revealCode(stranger, cardId),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect((res.json() as { code: string }).code).toBe('NOT_FOUND');
      expect(res.body).not.toContain(paid.reference);
    }
    const theirs = (await stranger.request({ method: 'GET', url: '/api/v1/purchased-cards' })).json();
    expect(theirs).toEqual({ items: [], sentGifts: [], nextCursor: null });

    // The seller is a business: the buyer's card and code are not its to read.
    expect(
      (await seller.request({ method: 'GET', url: `/api/v1/purchased-cards/${cardId}` })).statusCode,
    ).toBe(403);
    expect((await revealCode(seller, cardId)).statusCode).toBe(403);
    expect((await seller.request({ method: 'GET', url: `/api/v1/orders/${paid.id}` })).statusCode).toBe(403);

    // The owner still can.
    expect((await revealCode(owner, cardId)).statusCode).toBe(200);
  });

  it('signed out: 401 for orders, cards and codes', async () => {
    const id = randomUUID();
    for (const [method, url, payload] of [
      ['POST', '/api/v1/orders', { giftCardId: randomUUID() }],
      ['GET', `/api/v1/orders/${id}`, undefined],
      ['GET', '/api/v1/purchased-cards', undefined],
      ['GET', `/api/v1/purchased-cards/${id}`, undefined],
      ['POST', `/api/v1/purchased-cards/${id}/code`, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, payload, headers: sameOrigin });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
    }
  });

  it('a card that stopped selling cannot be bought (409 CARD_NOT_ON_SALE)', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const stop = await seller.request({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${card.id}`,
      payload: { onSale: false },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const buyer = await user();
    const res = await postOrder(buyer, card.id, `key-${randomUUID()}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CARD_NOT_ON_SALE' });
    expect(await query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toEqual([]);
  });

  it('an unknown card is 404 and a malformed id is 400', async () => {
    const buyer = await user();
    const unknown = await postOrder(buyer, randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That gift card was not found.' });
    const malformed = await postOrder(buyer, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Choose a gift card to buy.',
    });
    expect(await query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toEqual([]);
  });

  it('refuses a cookie-authenticated order from another site (CSRF)', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const res = await buyer.request({
      method: 'POST',
      url: '/api/v1/orders',
      payload: { giftCardId: card.id },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect(await query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toEqual([]);
  });
});

describe('what an instance remembers between requests (issue 14)', () => {
  const ordersOf = (buyer: Account) => query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id]);

  it('an order on a design remembered before another instance stopped selling it is refused; nothing is written', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    await startOrder(buyer, card.id);
    // As another instance would: this one is not told, and still remembers the design on sale.
    await query('UPDATE gift_cards SET on_sale = false WHERE id = $1', [card.id]);
    const res = await postOrder(buyer, card.id, `key-${randomUUID()}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ code: 'CARD_NOT_ON_SALE', message: 'This gift card is no longer on sale.' });
    expect(await ordersOf(buyer)).toHaveLength(1);
    expect(
      await query('SELECT id FROM sandbox_payments WHERE amount = $1 AND description LIKE $2', [
        card.amount.amount,
        `%${seller.input.name}%`,
      ]),
    ).toHaveLength(1);
  });

  it('20 orders at once on two remembered designs, one stopped behind the instance: its 10 are refused, the other 10 written', async () => {
    const seller = await business();
    const stopped = await createCard(seller);
    const selling = await createCard(seller);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => user()));
    await startOrder(buyers[0]!, stopped.id);
    await startOrder(buyers[0]!, selling.id);
    await query('UPDATE gift_cards SET on_sale = false WHERE id = $1', [stopped.id]);
    const answers = await Promise.all(
      buyers.map((buyer, i) => postOrder(buyer, (i % 2 ? selling : stopped).id, `key-${randomUUID()}`)),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(buyers.map((_, i) => (i % 2 ? 201 : 409)));
    const written = await query<{ gift_card_id: string; n: number }>(
      'SELECT gift_card_id, count(*)::int AS n FROM orders WHERE gift_card_id = ANY($1) GROUP BY gift_card_id',
      [[stopped.id, selling.id]],
    );
    expect(Object.fromEntries(written.map((row) => [row.gift_card_id, row.n]))).toEqual({
      [stopped.id]: 1,
      [selling.id]: 11,
    });
  });

  it('a design back on sale after a refusal sells again, from a fresh read', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    await startOrder(buyer, card.id);
    await query('UPDATE gift_cards SET on_sale = false WHERE id = $1', [card.id]);
    expect((await postOrder(buyer, card.id)).statusCode).toBe(409);
    await query('UPDATE gift_cards SET on_sale = true WHERE id = $1', [card.id]);
    const again = await startOrder(buyer, card.id);
    expect(again).toMatchObject({ status: 'pending', giftCardId: card.id });
    expect(await ordersOf(buyer)).toHaveLength(2);
  });

  it('a business renamed by another instance since its design was remembered: the order and its payment name it as it is now', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    expect((await startOrder(buyer, card.id)).businessName).toBe(seller.input.name);
    const renamed = `Renamed ${randomUUID().slice(0, 8)}`;
    await query('UPDATE accounts SET name = $1 WHERE id = $2', [renamed, seller.account.id]);
    const order = await startOrder(buyer, card.id);
    expect(order.businessName).toBe(renamed);
    const [payment] = await query<{ description: string }>(
      'SELECT description FROM sandbox_payments WHERE reference = $1',
      [order.reference],
    );
    expect(payment!.description).toContain(renamed);
    expect(await ordersOf(buyer)).toHaveLength(2);
  });

  it('a confirmation of a remembered order that was failed since goes to the locked path: one card, one entry', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    const failed = await sendWebhook(t, confirmation(order, 'payment.failed', { reason: 'declined' }));
    expect(failed.json()).toEqual({ received: true, result: 'marked-failed' });
    const results = await Promise.all(Array.from({ length: 5 }, () => confirm(order)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => (r.json() as { result: string }).result).sort()).toEqual([
      'already-paid',
      'already-paid',
      'already-paid',
      'already-paid',
      'issued',
    ]);
    const state = await traces(order.id);
    expect(state.cards).toHaveLength(1);
    expect(state.entries).toHaveLength(1);
    expect(await walletAmount(seller)).toBe(500_000);
  });

  it('an order started on one instance is completed once by a confirmation that reaches another', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    const other = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
    try {
      const results = await Promise.all([confirm(order, other), confirm(order, other), confirm(order)]);
      expect(results.map((r) => (r.json() as { result: string }).result).sort()).toEqual([
        'already-paid',
        'already-paid',
        'issued',
      ]);
    } finally {
      await other.close();
    }
    expect(await getOrder(buyer, order.id)).toMatchObject({ status: 'paid' });
    const state = await traces(order.id);
    expect(state.cards).toHaveLength(1);
    expect(state.entries).toHaveLength(1);
  });
});

describe('Idempotency-Key on POST /api/v1/orders', () => {
  it('a retry with the same key and body returns the first order (200), and makes no second order', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const key = `retry-${randomUUID()}`;
    const first = await postOrder(buyer, card.id, key);
    expect(first.statusCode, first.body).toBe(201);
    const second = await postOrder(buyer, card.id, key);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toHaveLength(1);
    const order = first.json() as Order;
    expect(
      await query('SELECT id FROM sandbox_payments WHERE reference = $1', [order.reference]),
    ).toHaveLength(1);
  });

  it('the same key with another card is 409 IDEMPOTENCY_CONFLICT and starts nothing', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const otherCard = await createCard(seller, 700_000);
    const buyer = await user();
    const key = `conflict-${randomUUID()}`;
    expect((await postOrder(buyer, card.id, key)).statusCode).toBe(201);
    const res = await postOrder(buyer, otherCard.id, key);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await query('SELECT gift_card_id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toEqual([
      { gift_card_id: card.id },
    ]);
  });

  it('without a key, each POST is a new order; one key of two buyers is two orders', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const a = await user();
    const b = await user();
    const one = await startOrder(a, card.id);
    const two = await startOrder(a, card.id);
    expect(one.id).not.toBe(two.id);
    expect(one.reference).not.toBe(two.reference);
    const key = `shared-${randomUUID()}`;
    const ofA = await postOrder(a, card.id, key);
    const ofB = await postOrder(b, card.id, key);
    expect([ofA.statusCode, ofB.statusCode]).toEqual([201, 201]);
    expect((ofA.json() as Order).id).not.toBe((ofB.json() as Order).id);
  });

  it('10 concurrent POSTs with the same key make one order', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const key = `burst-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => postOrder(buyer, card.id, key)));
    for (const res of answers) expect([200, 201], res.body).toContain(res.statusCode);
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
    const ids = new Set(answers.map((res) => (res.json() as Order).id));
    expect(ids.size).toBe(1);
    const rows = await query<{ id: string; reference: string }>(
      'SELECT id, reference FROM orders WHERE buyer_id = $1',
      [buyer.account.id],
    );
    expect(rows).toHaveLength(1);
    expect(
      await query('SELECT id FROM sandbox_payments WHERE reference = $1', [rows[0]!.reference]),
    ).toHaveLength(1);
    // The nine that lost wrote no payment of their own (the sandbox's is written in the order's statement).
    expect(
      await query('SELECT reference FROM sandbox_payments WHERE description LIKE $1', [
        `${seller.input.name} gift card,%`,
      ]),
    ).toEqual([{ reference: rows[0]!.reference }]);
    for (const res of answers) {
      expect((res.json() as Order).checkoutUrl).toBe((answers[0]!.json() as Order).checkoutUrl);
    }
  });

  it('30 POSTs at once, three per key over 10 keys, make 10 orders, each with its one payment (ADR 027)', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const keys = Array.from({ length: 10 }, () => `burst-${randomUUID()}`);
    const answers = await Promise.all(
      keys.flatMap((key) => [1, 2, 3].map(() => postOrder(buyer, card.id, key))),
    );
    for (const res of answers) expect([200, 201], res.body).toContain(res.statusCode);
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(10);
    keys.forEach((_, k) => {
      const ids = new Set(answers.slice(k * 3, k * 3 + 3).map((res) => (res.json() as Order).id));
      expect(ids.size).toBe(1);
    });
    const rows = await query<{ reference: string; idempotency_key: string }>(
      'SELECT reference, idempotency_key FROM orders WHERE buyer_id = $1',
      [buyer.account.id],
    );
    expect(rows.map((r) => r.idempotency_key).sort()).toEqual([...keys].sort());
    const payments = await query<{ reference: string }>(
      'SELECT reference FROM sandbox_payments WHERE description LIKE $1',
      [`${seller.input.name} gift card,%`],
    );
    expect(payments.map((p) => p.reference).sort()).toEqual(rows.map((r) => r.reference).sort());
  });

  it('a retry after the card stopped selling still returns the first order (5 at once), not CARD_NOT_ON_SALE', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const key = `off-sale-${randomUUID()}`;
    const first = await postOrder(buyer, card.id, key);
    expect(first.statusCode, first.body).toBe(201);
    const stop = await seller.request({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${card.id}`,
      payload: { onSale: false },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const retries = await Promise.all(Array.from({ length: 5 }, () => postOrder(buyer, card.id, key)));
    for (const retry of retries) {
      expect(retry.statusCode, retry.body).toBe(200);
      expect((retry.json() as Order).id).toBe((first.json() as Order).id);
    }
    expect((await postOrder(buyer, card.id, `new-${randomUUID()}`)).statusCode).toBe(409);
  });

  it('a retry after the order was paid returns the paid order and charges nothing again', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const key = `after-paid-${randomUUID()}`;
    const order = (await postOrder(buyer, card.id, key)).json() as Order;
    expect((await confirm(order)).statusCode).toBe(200);
    const retry = await postOrder(buyer, card.id, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ id: order.id, status: 'paid', purchasedCardId: expect.any(String) });
    expect(await walletAmount(seller)).toBe(500_000);
    expect(await query('SELECT id FROM orders WHERE buyer_id = $1', [buyer.account.id])).toHaveLength(1);
  });
});

describe('a payment provider reached over the network (no payment in the order statement)', () => {
  it('writes the order first, then starts its payment; 5 at once with one key make one order', async () => {
    const started: StartPayment[] = [];
    const overTheNetwork: PaymentProvider = {
      name: 'paystack',
      async startPayment(input) {
        started.push(input);
        return { checkoutUrl: `https://pay.example.com/${input.reference}` };
      },
      parseWebhook() {
        throw new Error('no webhooks in this test');
      },
      async refund() {},
    };
    const other = await createTestApp({}, { payments: overTheNetwork });
    try {
      const seller = await registerAndLogin(other.app, 'business');
      const design = await seller.request({
        method: 'POST',
        url: '/api/v1/gift-cards',
        payload: { amount: 500_000, colour: '#7c3aed' },
      });
      expect(design.statusCode, design.body).toBe(201);
      const buyer = await registerAndLogin(other.app, 'user');
      const key = `network-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          buyer.request({
            method: 'POST',
            url: '/api/v1/orders',
            headers: { 'idempotency-key': key },
            payload: { giftCardId: design.json().id },
          }),
        ),
      );
      for (const res of answers) expect([200, 201], res.body).toContain(res.statusCode);
      expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
      const order = answers.find((res) => res.statusCode === 201)!.json() as Order;
      expect(order.checkoutUrl).toBe(`https://pay.example.com/${order.reference}`);
      for (const res of answers) expect((res.json() as Order).id).toBe(order.id);
      const rows = await query<{ provider: string; checkout_url: string; status: string }>(
        'SELECT provider, checkout_url, status FROM orders WHERE buyer_id = $1',
        [buyer.account.id],
      );
      expect(rows).toEqual([{ provider: 'paystack', checkout_url: order.checkoutUrl, status: 'pending' }]);
      expect(started.map((input) => input.reference)).toContain(order.reference);
      expect(await query('SELECT id FROM sandbox_payments WHERE reference = $1', [order.reference])).toEqual(
        [],
      );
    } finally {
      await other.close();
    }
  });
});

describe('payment confirmations (the sandbox webhook)', () => {
  it('REPLAY: one confirmation delivered 10 times at once issues one card and credits the wallet once', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    const raw = confirmation(order);

    const answers = await Promise.all(Array.from({ length: 10 }, () => sendWebhook(t, raw)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const results = answers.map((res) => (res.json() as { result: string }).result).sort();
    expect(results).toEqual([...Array(9).fill('already-paid'), 'issued']);

    const state = await traces(order.id);
    expect(state.order!.status).toBe('paid');
    expect(state.cards).toHaveLength(1);
    expect(state.entries).toHaveLength(1);
    expect(await walletAmount(seller)).toBe(500_000);
    const sold = (await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${card.id}` })).json();
    expect((sold as GiftCard).soldCount).toBe(1);
    // The card is its own issue (ADR 039): no activity, however many deliveries.
    expect(
      await query('SELECT id FROM card_activities WHERE purchased_card_id = $1', [state.cards[0]!.id]),
    ).toHaveLength(0);
    expect(
      await query("SELECT id FROM notifications WHERE account_id = $1 AND kind = 'card_sold'", [
        seller.account.id,
      ]),
    ).toHaveLength(1);

    // Later deliveries (the provider retrying) are answered 200 and change nothing.
    for (let i = 0; i < 3; i += 1) {
      const late = await sendWebhook(t, raw);
      expect(late.statusCode).toBe(200);
      expect(late.json()).toEqual({ received: true, result: 'already-paid' });
    }
    expect((await traces(order.id)).cards).toHaveLength(1);
    expect(await walletAmount(seller)).toBe(500_000);
    expect((await buyer.request({ method: 'GET', url: '/api/v1/purchased-cards' })).json()).toMatchObject({
      items: [{ id: state.cards[0]!.id }],
    });
  });

  it('one confirmation 10 times at once among 10 other orders’ confirmations: each order paid once, the counts exact', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    // A first sale made the business's ledger accounts, so these are written as read, several in a statement.
    expect((await confirm(await startOrder(buyer, card.id))).statusCode).toBe(200);
    const orders = await Promise.all(Array.from({ length: 11 }, () => startOrder(buyer, card.id)));
    const raws = [
      ...Array(10).fill(confirmation(orders[0]!)),
      ...orders.slice(1).map((o) => confirmation(o)),
    ];
    const answers = await Promise.all(raws.map((raw) => sendWebhook(t, raw)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const results = answers.map((res) => (res.json() as { result: string }).result);
    expect(results.slice(0, 10).sort()).toEqual([...Array(9).fill('already-paid'), 'issued']);
    expect(results.slice(10)).toEqual(Array(10).fill('issued'));
    for (const order of orders) {
      const state = await traces(order.id);
      expect(state.order!.status).toBe('paid');
      expect(state.cards).toHaveLength(1);
      expect(state.entries).toHaveLength(1);
    }
    expect(await walletAmount(seller)).toBe(12 * 500_000);
    const sold = (await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${card.id}` })).json();
    expect((sold as GiftCard).soldCount).toBe(12);
    expect(
      await query("SELECT id FROM notifications WHERE account_id = $1 AND kind = 'card_sold'", [
        seller.account.id,
      ]),
    ).toHaveLength(12);
    expect(await unbalancedEntries()).toEqual([]);
  });

  it('sales written as read refuse as a whole when one order is no longer pending: nothing of either is written', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    expect((await confirm(await startOrder(buyer, card.id))).statusCode).toBe(200);
    const [pending, paid] = [await startOrder(buyer, card.id), await startOrder(buyer, card.id)];
    expect((await confirm(paid)).statusCode).toBe(200);
    const soldBefore = (await query<{ sold_count: number }>(SOLD_COUNT, [card.id]))[0]!.sold_count;
    const sale = (order: Order) => ({
      orderId: order.id,
      businessId: seller.account.id,
      amount: 500_000n,
      fee: 0n,
      currency: 'NGN',
    });
    const complete = (orders: Order[]) =>
      entriesAsRead(
        t.database.db,
        orders.map((o) => ({ orderId: o.id, paidAt: new Date() })),
        saleEntryValuesOf(orders.map(sale)),
      );
    const refusal = await complete([pending, paid]).catch((error: unknown) => error);
    expect(isSaleRefused(refusal)).toBe(true);
    expect((await traces(pending.id)).order!.status).toBe('pending');
    expect((await traces(pending.id)).entries).toEqual([]);
    expect((await traces(paid.id)).entries).toHaveLength(1);
    // Alone, the pending one is written; the paid one is refused again.
    expect(await complete([pending])).toBe(true);
    expect((await traces(pending.id)).order!.status).toBe('paid');
    expect((await traces(pending.id)).entries).toHaveLength(1);
    expect(isSaleRefused(await complete([paid]).catch((error: unknown) => error))).toBe(true);
    const soldAfter = (await query<{ sold_count: number }>(SOLD_COUNT, [card.id]))[0]!.sold_count;
    expect(soldAfter).toBe(soldBefore + 1);
  });

  it('the first sale in a currency (no platform accounts yet) makes them under the lock; 5 deliveries at once pay it once', async () => {
    let currency: string;
    do {
      currency = Array.from({ length: 3 }, () => String.fromCharCode(65 + randomInt(26))).join('');
    } while ((await query('SELECT 1 FROM ledger_accounts WHERE currency = $1', [currency])).length > 0);
    const app = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0', CURRENCY: currency });
    try {
      const seller = await business(app);
      const card = await createCard(seller);
      const order = await startOrder(await user(app), card.id);
      expect(order.amount.currency).toBe(currency);
      const raw = confirmation(order);
      const answers = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(app, raw)));
      const results = answers.map((res) => (res.json() as { result: string }).result).sort();
      expect(results).toEqual([...Array(4).fill('already-paid'), 'issued']);
      expect((await traces(order.id)).cards).toHaveLength(1);
      expect(await postingsOf(`order:${order.id}`)).toEqual([
        { kind: 'business_wallet', owner_id: seller.account.id, amount: '500000', currency },
        { kind: 'payment_clearing', owner_id: null, amount: '-500000', currency },
      ]);
    } finally {
      await app.close();
    }
  });

  it('refused confirmations write nothing; the genuine one still works afterwards', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const order = await startOrder(buyer, card.id);
    const genuine = confirmation(order);

    const expectNothingWritten = async () => {
      const state = await traces(order.id);
      expect(state.order).toEqual({ status: 'pending', failure_reason: null, paid_at: null });
      expect(state.cards).toEqual([]);
      expect(state.entries).toEqual([]);
      expect(await walletAmount(seller)).toBe(0);
    };

    const refusals: [string, LightMyRequestResponse, number, string][] = [
      ['no signature', await sendWebhook(t, genuine, null), 401, 'WEBHOOK_SIGNATURE_INVALID'],
      ['an empty signature', await sendWebhook(t, genuine, ''), 401, 'WEBHOOK_SIGNATURE_INVALID'],
      [
        'another secret',
        await sendWebhook(t, genuine, signSandbox('not-the-secret', genuine)),
        401,
        'WEBHOOK_SIGNATURE_INVALID',
      ],
      [
        'a signature of another body',
        await sendWebhook(
          t,
          genuine,
          signSandbox(secret, confirmation(order, 'payment.succeeded', { amount: '1' })),
        ),
        401,
        'WEBHOOK_SIGNATURE_INVALID',
      ],
      [
        'a body changed after signing',
        await sendWebhook(
          t,
          genuine.replace(order.reference, `${order.reference}0`),
          signSandbox(secret, genuine),
        ),
        401,
        'WEBHOOK_SIGNATURE_INVALID',
      ],
      [
        'an unknown reference',
        await sendWebhook(
          t,
          confirmation(order, 'payment.succeeded', { reference: 'GM-00000000000000000000' }),
        ),
        404,
        'NOT_FOUND',
      ],
      [
        'less money',
        await sendWebhook(t, confirmation(order, 'payment.succeeded', { amount: '499999' })),
        400,
        'PAYMENT_MISMATCH',
      ],
      [
        'more money',
        await sendWebhook(t, confirmation(order, 'payment.succeeded', { amount: '5000000' })),
        400,
        'PAYMENT_MISMATCH',
      ],
      [
        'another currency',
        await sendWebhook(t, confirmation(order, 'payment.succeeded', { currency: 'USD' })),
        400,
        'PAYMENT_MISMATCH',
      ],
      [
        'a failure for another amount',
        await sendWebhook(t, confirmation(order, 'payment.failed', { amount: '1', reason: 'x' })),
        400,
        'PAYMENT_MISMATCH',
      ],
      [
        'an amount that is not whole minor units',
        await sendWebhook(t, confirmation(order, 'payment.succeeded', { amount: '5000.00' })),
        400,
        'VALIDATION_FAILED',
      ],
      ['a body that is not JSON', await sendWebhook(t, 'not json'), 400, 'VALIDATION_FAILED'],
      [
        'a body without data',
        await sendWebhook(t, '{"event":"payment.succeeded"}'),
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [why, res, status, code] of refusals) {
      expect(res.statusCode, `${why}: ${res.body}`).toBe(status);
      expect((res.json() as { code: string }).code, why).toBe(code);
    }
    await expectNothingWritten();

    const accepted = await sendWebhook(t, genuine);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ received: true, result: 'issued' });
    const state = await traces(order.id);
    expect(state.order!.status).toBe('paid');
    expect(state.cards).toHaveLength(1);
    expect(state.entries).toHaveLength(1);
    expect(await walletAmount(seller)).toBe(500_000);
  });

  it('CONCURRENCY: 50 users buy the same card at once: 50 cards, 50 codes, the wallet exactly 50 × the amount', async () => {
    const seller = await business();
    const amount = 123_456;
    const card = await createCard(seller, amount);
    const buyers: Account[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      buyers.push(...(await Promise.all(Array.from({ length: 10 }, () => user()))));
    }
    const statuses: number[] = [];

    const created = await Promise.all(buyers.map((buyer) => postOrder(buyer, card.id)));
    statuses.push(...created.map((res) => res.statusCode));
    for (const res of created) expect(res.statusCode, res.body).toBe(201);
    const orders = created.map((res) => res.json() as Order);

    const forms = await Promise.all(orders.map((order) => checkout(t, order)));
    statuses.push(...forms.map((res) => res.statusCode));
    for (const res of forms) expect(res.statusCode).toBe(303);

    const confirmed = await Promise.all(orders.map((order) => confirm(order)));
    statuses.push(...confirmed.map((res) => res.statusCode));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const res of confirmed) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, result: 'issued' });
    }

    const cards = await query<{ id: string; owner_id: string; code_hash: string; balance: string }>(
      `SELECT id, owner_id, code_hash, balance::text AS balance FROM purchased_cards
        WHERE order_id = ANY($1::uuid[])`,
      [orders.map((o) => o.id)],
    );
    expect(cards).toHaveLength(50);
    expect(new Set(cards.map((c) => c.id)).size).toBe(50);
    expect(new Set(cards.map((c) => c.code_hash)).size).toBe(50);
    expect(new Set(cards.map((c) => c.owner_id))).toEqual(new Set(buyers.map((b) => b.account.id)));
    expect(cards.every((c) => c.balance === String(amount))).toBe(true);

    expect(await walletAmount(seller)).toBe(50 * amount);
    const entries = await query<{ reference: string }>(
      'SELECT reference FROM journal_entries WHERE reference = ANY($1::text[])',
      [orders.map((o) => `order:${o.id}`)],
    );
    expect(entries).toHaveLength(50);
    expect(await unbalancedEntries()).toEqual([]);
    const sold = (await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${card.id}` })).json();
    expect((sold as GiftCard).soldCount).toBe(50);

    // Each buyer sees their one card, and only theirs.
    const lists = await Promise.all(
      buyers.map((buyer) => buyer.request({ method: 'GET', url: '/api/v1/purchased-cards' })),
    );
    lists.forEach((res, i) => {
      const { items } = res.json() as PurchasedCardPage;
      expect(items).toHaveLength(1);
      expect(items[0]!.id).toBe(cards.find((c) => c.owner_id === buyers[i]!.account.id)!.id);
    });
  }, 120_000);

  it('PLATFORM_FEE_BPS=250: a ₦10,000 sale puts ₦9,750 in the wallet and ₦250 in platform revenue', async () => {
    const withFee = await createTestApp({ PLATFORM_FEE_BPS: '250', SANDBOX_WEBHOOK_DELAY_MS: '0' });
    try {
      const seller = await business(withFee);
      const card = await createCard(seller, 1_000_000);
      const buyer = await user(withFee);
      const paid = await buy(buyer, card, withFee);
      expect(paid.status).toBe('paid');

      expect(await walletAmount(seller)).toBe(975_000);
      expect(await postingsOf(`order:${paid.id}`)).toEqual([
        { kind: 'business_wallet', owner_id: seller.account.id, amount: '975000', currency: 'NGN' },
        { kind: 'payment_clearing', owner_id: null, amount: '-1000000', currency: 'NGN' },
        { kind: 'platform_revenue', owner_id: null, amount: '25000', currency: 'NGN' },
      ]);
      // The buyer's card is worth the full price; the fee is the business's cost.
      const detail = (
        await buyer.request({ method: 'GET', url: `/api/v1/purchased-cards/${paid.purchasedCardId}` })
      ).json() as PurchasedCardDetail;
      expect(detail.balance.amount).toBe(1_000_000);
      const [note] = await query<{ body: string }>(
        "SELECT body FROM notifications WHERE account_id = $1 AND kind = 'card_sold'",
        [seller.account.id],
      );
      expect(note!.body).toContain('₦9,750.00 is in your wallet');

      // An amount the fee does not divide: the fee is rounded down, and the entry still balances.
      const odd = await createCard(seller, 33_333);
      const oddPaid = await buy(await user(withFee), odd, withFee);
      expect(await postingsOf(`order:${oddPaid.id}`)).toEqual([
        { kind: 'business_wallet', owner_id: seller.account.id, amount: '32500', currency: 'NGN' },
        { kind: 'payment_clearing', owner_id: null, amount: '-33333', currency: 'NGN' },
        { kind: 'platform_revenue', owner_id: null, amount: '833', currency: 'NGN' },
      ]);
      expect(await walletAmount(seller)).toBe(975_000 + 32_500);
    } finally {
      await withFee.close();
    }
  });
});

describe('secrets and the ledger at rest', () => {
  it('a redemption code is stored nowhere in clear', async () => {
    const seller = await business();
    const card = await createCard(seller);
    const buyer = await user();
    const paid = await buy(buyer, card);
    const { code } = (await revealCode(buyer, paid.purchasedCardId!)).json() as { code: string };
    const body = code.replace(/-/g, '').slice(0, 16);
    expect(body).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);

    const [stored] = await query<Record<string, string>>('SELECT * FROM purchased_cards WHERE id = $1', [
      paid.purchasedCardId,
    ]);
    expect(stored!.code_last4).toBe(body.slice(-4));
    for (const column of ['code_hash', 'code_ciphertext']) {
      expect(stored![column]!.toUpperCase()).not.toContain(body);
      expect(stored![column]!.toUpperCase()).not.toContain(body.slice(0, 12));
    }

    // Every row of every table, as text: neither the code nor its first 12 characters (60 bits) appear.
    const tables = await query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'purchased_cards',
        'orders',
        'card_activities',
        'notifications',
        'sandbox_payments',
      ]),
    );
    for (const { table_name: table } of tables) {
      for (const needle of [body, code.slice(0, 19), body.slice(0, 12)]) {
        const [hit] = await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table}" AS r WHERE r::text ILIKE '%' || $1 || '%'`,
          [needle],
        );
        expect(hit!.n, `${needle} found in ${table}`).toBe(0);
      }
    }

    // Nor in any answer but the reveal.
    for (const url of [
      '/api/v1/purchased-cards',
      `/api/v1/purchased-cards/${paid.purchasedCardId}`,
      `/api/v1/orders/${paid.id}`,
    ]) {
      const res = await buyer.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body.toUpperCase()).not.toContain(body.slice(0, 12));
    }
  });

  describe('the ledger refuses, whatever SQL is sent', () => {
    async function walletId(accountId: string): Promise<string> {
      const [row] = await query<{ id: string }>(
        "SELECT id FROM ledger_accounts WHERE owner_id = $1 AND kind = 'business_wallet'",
        [accountId],
      );
      expect(row, 'a business has its wallet from registration').toBeDefined();
      return row!.id;
    }

    /** Runs statements in one transaction and commits; answers the error, or null when it committed. */
    async function inTransaction(statements: [string, unknown[]?][]): Promise<Error | null> {
      const client = await t.database.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query("SET LOCAL lock_timeout = '5s'");
        try {
          for (const [sql, params] of statements) await client.query(sql, params ?? []);
          await client.query('COMMIT');
          return null;
        } catch (error) {
          await client.query('ROLLBACK');
          return error as Error;
        }
      } finally {
        client.release();
      }
    }

    const entry = (reference: string, postings: [string, number, string?][]) => {
      const values = postings
        .map(
          (_, i) =>
            `((SELECT id FROM journal_entries WHERE reference = $1), $${i * 3 + 2}, $${i * 3 + 3}, $${i * 3 + 4})`,
        )
        .join(', ');
      return [
        ['INSERT INTO journal_entries (kind, reference) VALUES ($1, $2)', ['test', reference]],
        [
          `INSERT INTO postings (entry_id, ledger_account_id, amount, currency) VALUES ${values}`,
          [
            reference,
            ...postings.flatMap(([account, amount, currency]) => [account, amount, currency ?? 'NGN']),
          ],
        ],
      ] as [string, unknown[]][];
    };

    it('an unbalanced entry, one posting alone, an entry without postings, or mixed currencies', async () => {
      const a = await walletId((await business()).account.id);
      const b = await walletId((await business()).account.id);
      const cases: [string, [string, unknown[]?][]][] = [
        [
          'unbalanced',
          entry(`test:${randomUUID()}`, [
            [a, 100],
            [b, -99],
          ]),
        ],
        ['one posting', entry(`test:${randomUUID()}`, [[a, 100]])],
        [
          'no postings',
          [
            [
              'INSERT INTO journal_entries (kind, reference) VALUES ($1, $2)',
              ['test', `test:${randomUUID()}`],
            ],
          ],
        ],
        [
          'mixed currencies',
          entry(`test:${randomUUID()}`, [
            [a, 100, 'NGN'],
            [b, -100, 'USD'],
          ]),
        ],
        [
          'a zero posting',
          entry(`test:${randomUUID()}`, [
            [a, 100],
            [b, -100],
            [a, 0],
          ]),
        ],
      ];
      for (const [why, statements] of cases) {
        const error = await inTransaction(statements);
        expect(error, why).toBeInstanceOf(Error);
        const reference = statements[0]![1]![1] as string;
        expect(await query('SELECT id FROM journal_entries WHERE reference = $1', [reference]), why).toEqual(
          [],
        );
      }
      expect((await inTransaction(cases[0]![1]))?.message).toMatch(/does not balance/);

      // The same statements with a balanced entry commit: the refusals above are the ledger's rules.
      const reference = `test:${randomUUID()}`;
      expect(
        await inTransaction(
          entry(reference, [
            [a, 100],
            [b, -100],
          ]),
        ),
      ).toBeNull();
      expect(await query('SELECT id FROM journal_entries WHERE reference = $1', [reference])).toHaveLength(1);
    });

    it('no UPDATE, DELETE or TRUNCATE of postings or journal entries', async () => {
      const seller = await business();
      const card = await createCard(seller);
      const paid = await buy(await user(), card);
      const reference = `order:${paid.id}`;
      const [row] = await query<{ id: string }>('SELECT id FROM journal_entries WHERE reference = $1', [
        reference,
      ]);
      const entryId = row!.id;
      const before = await postingsOf(reference);
      expect(before).toHaveLength(2);

      for (const [sql, params] of [
        ['UPDATE postings SET amount = amount * 2 WHERE entry_id = $1', [entryId]],
        ['UPDATE postings SET ledger_account_id = ledger_account_id WHERE entry_id = $1', [entryId]],
        ['DELETE FROM postings WHERE entry_id = $1', [entryId]],
        ["UPDATE journal_entries SET reference = reference || ':edited' WHERE id = $1", [entryId]],
        ['DELETE FROM journal_entries WHERE id = $1', [entryId]],
        ['TRUNCATE postings', []],
        ['TRUNCATE journal_entries CASCADE', []],
      ] as [string, unknown[]][]) {
        const error = await inTransaction([[sql, params]]);
        expect(error, sql).toBeInstanceOf(Error);
        expect(error!.message, sql).toMatch(/append-only/);
      }
      expect(await postingsOf(reference)).toEqual(before);
      expect(await walletAmount(seller)).toBe(500_000);
    });
  });
});
