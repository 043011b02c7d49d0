import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gift } from '../../../shared/cards/gifts';
import type { Order } from '../../../shared/orders/schemas';
import { GIFT_RECEIVED_TITLE } from '../../../shared/notifications/schemas';
import { sandboxSecret } from './payments/payments';
import { signSandbox } from './payments/sandbox.provider';
import { buyCard, cardOf, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { unique } from '../../../../tests/fixtures/factories';
import {
  actOnGift,
  activityKinds,
  mailsTo,
  notificationsOf,
  tokenFor,
  usernameOf,
} from '../../../../tests/fixtures/gifts';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * Buying a card as a gift (issue 11): the recipient is checked before any payment, the gift is kept with
 * the order and sent from the buyer in the payment's transaction; the buyer gets the purchase receipt.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const user = () => registerAndLogin(t.app, 'user');
const email = () => `giftee-${unique()}@example.test`;

function order(buyer: Account, payload: Record<string, unknown>, key?: string) {
  return buyer.request({
    method: 'POST',
    url: '/api/v1/orders',
    payload,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

/** The sandbox's signed confirmation, sent straight to the webhook as its worker would. */
async function confirm(buyer: Account, placed: Order): Promise<Order> {
  const raw = JSON.stringify({
    event: 'payment.succeeded',
    data: {
      reference: placed.reference,
      amount: String(placed.amount.amount),
      currency: placed.amount.currency,
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
  return (await buyer.request({ method: 'GET', url: `/api/v1/orders/${placed.id}` })).json() as Order;
}

async function setUp() {
  const seller = await registerAndLogin(t.app, 'business');
  const buyer = await user();
  const design = await createDesign(seller, 500_000);
  return { seller, buyer, design };
}

async function ordersOf(buyerId: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM orders WHERE buyer_id = $1',
    [buyerId],
  );
  return rows[0]!.n;
}

describe('buying a card as a gift', () => {
  it('checks the recipient and the time before any payment: no order is written', async () => {
    const { buyer, design } = await setUp();
    const shop = await registerAndLogin(t.app, 'business');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ recipient: 'nobody_' + unique().slice(0, 12) }, 422, 'No Giftmart user has that username.'],
      [{ recipient: shop.input.email }, 422, 'gift cards can be sent to people only'],
      [{ recipient: buyer.input.email }, 422, 'You cannot send a gift card to yourself.'],
      [
        { recipient: email(), deliverAt: '2020-01-01T00:00:00Z' },
        400,
        'Choose a delivery time in the future',
      ],
      [{ recipient: email(), message: 'x'.repeat(501) }, 400, 'at most 500 characters'],
      [{ recipient: email(), recipientName: 'A\u0000B' }, 400, 'control'],
      [{ recipient: 42 }, 400, ''],
    ];
    for (const [gift, status, words] of cases) {
      const res = await order(buyer, { giftCardId: design.id, gift });
      expect(res.statusCode, JSON.stringify(gift)).toBe(status);
      expect(res.body).toContain(words);
    }
    expect(await ordersOf(buyer.account.id)).toBe(0);
  });

  it('keeps a gift exactly as typed, quotes, backslashes, braces and "NULL" included, with orders placed at once', async () => {
    const { buyer, design } = await setUp();
    const messages = ['NULL', 'say "hi" \\ {x, y}', '{"a": 1}', 'ẹ ṣé 🎁, ok', ''];
    const placed = await Promise.all(
      messages.map((message) =>
        order(buyer, { giftCardId: design.id, gift: { recipient: email(), recipientName: 'NULL', message } }),
      ),
    );
    for (const res of placed) expect(res.statusCode, res.body).toBe(201);
    const { rows } = await t.database.pool.query<{
      id: string;
      gift: { message?: string; recipientName: string };
    }>('SELECT id, gift FROM orders WHERE buyer_id = $1', [buyer.account.id]);
    const byId = new Map(rows.map((row) => [row.id, row.gift]));
    placed.forEach((res, i) => {
      const gift = byId.get((res.json() as Order).id)!;
      expect(gift.recipientName).toBe('NULL');
      expect(gift.message ?? '').toBe(messages[i]);
    });
  });

  it('★ once paid, the gift is on its way from the buyer; the buyer gets the receipt', async () => {
    const { seller, buyer, design } = await setUp();
    const friend = await user();
    const placed = await order(buyer, {
      giftCardId: design.id,
      gift: { recipient: usernameOf(friend), recipientName: 'Tolu', message: 'Enjoy!' },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect((placed.json() as Order).giftId).toBeNull();
    const paid = await confirm(buyer, placed.json() as Order);
    expect(paid.status).toBe('paid');
    expect(paid.giftId).toEqual(expect.any(String));

    const gift = (await buyer.request({ method: 'GET', url: `/api/v1/gifts/${paid.giftId}` })).json() as Gift;
    expect(gift).toMatchObject({
      status: 'pending',
      direction: 'sent',
      recipient: usernameOf(friend),
      recipientName: 'Tolu',
      message: 'Enjoy!',
      purchasedCardId: paid.purchasedCardId,
      card: { balance: { amount: 500_000 } },
    });
    expect((await cardOf(buyer, paid.purchasedCardId!)).status).toBe('gift_pending');
    expect(await activityKinds(t, paid.purchasedCardId!)).toEqual(['issue', 'gift_sent']);
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toEqual([
      {
        kind: 'gift_received',
        title: GIFT_RECEIVED_TITLE,
        body: `${buyer.input.name} sent you a ₦5,000.00 ${seller.input.name} gift card.`,
        link: `/gifts/${paid.giftId}`,
      },
    ]);
    const bought = await notificationsOf(t, buyer.account.id, 'card_bought');
    expect(bought).toEqual([
      {
        kind: 'card_bought',
        title: 'Your gift card is on its way',
        body: `You bought a ₦5,000.00 ${seller.input.name} gift card for ${usernameOf(friend)}. We sent it to them.`,
        link: `/gifts/${paid.giftId}`,
      },
    ]);
    const [receipt] = await mailsTo(t, buyer.input.email, 'card_bought');
    expect(receipt!.subject).toBe(`Your Giftmart receipt: ${seller.input.name} gift card, ₦5,000.00`);
    expect(receipt!.content.paragraphs).toEqual(
      expect.arrayContaining([
        `You paid ₦5,000.00 for a ${seller.input.name} gift card.`,
        `Reference: ${paid.reference}`,
      ]),
    );
    expect(receipt!.content.action).toEqual({ label: 'See your gift', path: `/gifts/${paid.giftId}` });

    // The recipient accepts: the card is theirs; the buyer's order still names the gift.
    expect((await actOnGift(t, friend, paid.giftId!, 'accept')).statusCode).toBe(200);
    expect((await cardOf(friend, paid.purchasedCardId!)).status).toBe('active');
  });

  it('to an address with no account, scheduled for later: it waits, and a second confirmation sends nothing twice', async () => {
    const { buyer, design } = await setUp();
    const to = email();
    const at = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const placed = (
      await order(buyer, { giftCardId: design.id, gift: { recipient: to, deliverAt: at } })
    ).json() as Order;
    const paid = await confirm(buyer, placed);
    const again = await confirm(buyer, placed);
    expect(again.giftId).toBe(paid.giftId);
    const gift = (await buyer.request({ method: 'GET', url: `/api/v1/gifts/${paid.giftId}` })).json() as Gift;
    expect(gift).toMatchObject({ status: 'scheduled', deliverAt: at });
    expect(await mailsTo(t, to)).toEqual([]);
    const [bought] = await notificationsOf(t, buyer.account.id, 'card_bought');
    expect(bought!.title).toBe('Your gift is scheduled');
    const { rows } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM gifts WHERE order_id = $1',
      [placed.id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('an e-mail recipient gets the mail with the link, and accepts after signing up', async () => {
    const { buyer, design } = await setUp();
    const to = email();
    const paid = await confirm(
      buyer,
      (await order(buyer, { giftCardId: design.id, gift: { recipient: to } })).json() as Order,
    );
    const token = await tokenFor(t, to, paid.giftId!);
    const newcomer = await user();
    const res = await actOnGift(t, newcomer, paid.giftId!, 'accept', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await cardOf(newcomer, paid.purchasedCardId!)).balance.amount).toBe(500_000);
  });

  it('when the recipient can no longer receive it at payment time, the card stays with the buyer, who is told why', async () => {
    const { buyer, design } = await setUp();
    const to = email();
    const placed = (await order(buyer, { giftCardId: design.id, gift: { recipient: to } })).json() as Order;
    // Between the order and the payment, the address became a business's.
    await registerAndLogin(t.app, 'business', { email: to });
    const paid = await confirm(buyer, placed);
    expect(paid.status).toBe('paid');
    expect(paid.giftId).toBeNull();
    const card = await cardOf(buyer, paid.purchasedCardId!);
    expect(card.status).toBe('active');
    expect(card.activities.map((a) => a.kind)).toEqual(['issue']);
    const [bought] = await notificationsOf(t, buyer.account.id, 'card_bought');
    expect(bought!.title).toBe('Your gift card is ready');
    expect(bought!.body).toContain(
      `we could not send it to ${to}: That address belongs to a business; gift cards can be sent to people only.`,
    );
    expect(bought!.link).toBe(`/user-dashboard/mycards/${paid.purchasedCardId}`);
  });

  it('an Idempotency-Key covers the gift: the same gift replays, another gift (or none) is 409', async () => {
    const { buyer, design } = await setUp();
    const key = randomUUID();
    const gift = { recipient: email(), message: 'Hi' };
    const first = await order(buyer, { giftCardId: design.id, gift }, key);
    expect(first.statusCode, first.body).toBe(201);
    const same = await order(buyer, { giftCardId: design.id, gift }, key);
    expect(same.statusCode).toBe(200);
    expect(same.json().id).toBe(first.json().id);
    for (const other of [
      { giftCardId: design.id, gift: { ...gift, message: 'Hello' } },
      { giftCardId: design.id, gift: { ...gift, recipient: email() } },
      { giftCardId: design.id },
    ]) {
      const res = await order(buyer, other, key);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('IDEMPOTENCY_CONFLICT');
    }
    expect(await ordersOf(buyer.account.id)).toBe(1);
  });
});

describe('the purchase receipt', () => {
  it('a plain purchase mails the buyer what they paid, for what, and the reference', async () => {
    const { seller, buyer, design } = await setUp();
    const card = await buyCard(t, buyer, design);
    const mails = await mailsTo(t, buyer.input.email, 'card_bought');
    expect(mails).toHaveLength(1);
    expect(mails[0]!).toMatchObject({
      subject: `Your Giftmart receipt: ${seller.input.name} gift card, ₦5,000.00`,
      content: {
        heading: 'Thank you for your purchase',
        action: { label: 'See your card', path: `/user-dashboard/mycards/${card.id}` },
      },
    });
    expect(mails[0]!.content.paragraphs).toEqual([
      `You paid ₦5,000.00 for a ${seller.input.name} gift card.`,
      `Reference: ${card.order.reference}`,
      expect.stringMatching(/^Paid: \d{1,2} \w+ \d{4} at \d\d:\d\d \(UTC\)$/),
      'The card and its secret code are in My Gift Cards.',
    ]);
    const [bought] = await notificationsOf(t, buyer.account.id, 'card_bought');
    expect(bought).toMatchObject({
      title: 'Your gift card is ready',
      body: `You bought a ₦5,000.00 ${seller.input.name} gift card.`,
    });
  });
});
