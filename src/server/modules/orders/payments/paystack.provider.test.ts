import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Order } from '../../../../shared/orders/schemas';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../../tests/fixtures/test-app';
import { buildApp } from '../../../app';
import { connectDatabase } from '../../../db/client';
import { loadConfig } from '../../../env';
import { createPaystackProvider } from './paystack.provider';
import { InvalidSignatureError } from '../../../lib/providers';

/**
 * The Paystack adapter (https://paystack.com/docs/api/transaction/#initialize, /docs/payments/webhooks):
 * requests are built against an injected fetch so no network is used; webhooks are Paystack's documented
 * charge.success shape, signed with the hex HMAC-SHA512 of the raw body.
 */
const SECRET = 'sk_test_0123456789abcdef0123456789abcdef01234567';

/** Paystack's own signature, computed here independently of the adapter. */
const sign = (body: string | Buffer, secret = SECRET) =>
  createHmac('sha512', secret).update(body).digest('hex');

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records each call and answers with `answer` (JSON, status). */
function fakeFetch(answer: { status?: number; json?: unknown; text?: string } = {}) {
  const calls: Call[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const body = answer.text ?? JSON.stringify(answer.json ?? initializeOk());
    return new Response(body, {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { impl, calls };
}

function initializeOk(authorizationUrl = 'https://checkout.paystack.com/0peioxfhpn') {
  return {
    status: true,
    message: 'Authorization URL created',
    data: { authorization_url: authorizationUrl, access_code: '0peioxfhpn', reference: 'GM-ANY' },
  };
}

const startInput = {
  reference: 'GM-0123456789ABCDEF0123',
  amount: 500_000n,
  currency: 'NGN',
  email: 'buyer@example.test',
  description: 'Mama Put Kitchen gift card, ₦5,000.00',
  returnUrl: 'https://giftmart.example/user-dashboard/orders/5d2c1f3e-0000-4000-8000-000000000001',
};

/** A charge.success event as Paystack documents it. */
function chargeSuccess(overrides: { reference?: string; amount?: number; currency?: string } = {}) {
  return {
    event: 'charge.success',
    data: {
      id: 4677002219,
      domain: 'test',
      status: 'success',
      reference: overrides.reference ?? 'GM-0123456789ABCDEF0123',
      amount: overrides.amount ?? 500_000,
      message: null,
      gateway_response: 'Successful',
      paid_at: '2025-02-11T10:42:20.000Z',
      created_at: '2025-02-11T10:42:03.000Z',
      channel: 'card',
      currency: overrides.currency ?? 'NGN',
      ip_address: '129.222.206.7',
      metadata: { description: 'Mama Put Kitchen gift card, ₦5,000.00' },
      fees_breakdown: null,
      log: null,
      fees: 7500,
      fees_split: null,
      authorization: {
        authorization_code: 'AUTH_7k5skwmhxu',
        bin: '408408',
        last4: '4081',
        exp_month: '12',
        exp_year: '2030',
        channel: 'card',
        card_type: 'visa ',
        bank: 'TEST BANK',
        country_code: 'NG',
        brand: 'visa',
        reusable: true,
        signature: 'SIG_C9LhIPX2mQ8uckT6In2U',
        account_name: null,
      },
      customer: {
        id: 239551424,
        first_name: '',
        last_name: '',
        email: 'buyer@example.test',
        customer_code: 'CUS_edn4wbf00pcot1p',
        phone: '',
        metadata: null,
        risk_action: 'default',
      },
      plan: null,
      split: {},
      order_id: null,
      paidAt: '2025-02-11T10:42:20.000Z',
      requested_amount: overrides.amount ?? 500_000,
    },
  };
}

const transferSuccess = {
  event: 'transfer.success',
  data: {
    amount: 30_000,
    currency: 'NGN',
    domain: 'test',
    reference: 'payout-ref-1',
    source: 'balance',
    status: 'success',
    transfer_code: 'TRF_wpl1dem4967avzm',
    recipient: { recipient_code: 'RCP_1i2k27vk4suemmx', type: 'nuban' },
  },
};

describe('startPayment', () => {
  it('POSTs to transaction/initialize with the secret key and the amount in kobo, and returns the authorization URL', async () => {
    const fetch = fakeFetch();
    const provider = createPaystackProvider({ secretKey: SECRET, fetchImpl: fetch.impl });
    const result = await provider.startPayment(startInput);

    expect(result).toEqual({ checkoutUrl: 'https://checkout.paystack.com/0peioxfhpn' });
    expect(fetch.calls).toHaveLength(1);
    const [call] = fetch.calls;
    expect(call!.url).toBe('https://api.paystack.co/transaction/initialize');
    expect(call!.init.method).toBe('POST');
    const headers = new Headers(call!.init.headers);
    expect(headers.get('authorization')).toBe(`Bearer ${SECRET}`);
    expect(headers.get('content-type')).toBe('application/json');
    const body = JSON.parse(String(call!.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      amount: '500000',
      reference: 'GM-0123456789ABCDEF0123',
      currency: 'NGN',
      email: 'buyer@example.test',
      callback_url: startInput.returnUrl,
    });
  });

  it('sends kobo exactly, even beyond what a float holds (9,007,199,254,740,993 kobo)', async () => {
    const fetch = fakeFetch();
    const provider = createPaystackProvider({ secretKey: SECRET, fetchImpl: fetch.impl });
    await provider.startPayment({ ...startInput, amount: 9_007_199_254_740_993n });
    expect(JSON.parse(String(fetch.calls[0]!.init.body)).amount).toBe('9007199254740993');
  });

  it('throws when Paystack answers status false', async () => {
    const fetch = fakeFetch({ status: 400, json: { status: false, message: 'Invalid key' } });
    const provider = createPaystackProvider({ secretKey: SECRET, fetchImpl: fetch.impl });
    await expect(provider.startPayment(startInput)).rejects.toThrow(/Invalid key/);
  });

  it('throws on status false even with HTTP 200, and on an answer that is not JSON', async () => {
    const falseOk = fakeFetch({
      status: 200,
      json: { status: false, message: 'Duplicate Transaction Reference' },
    });
    await expect(
      createPaystackProvider({ secretKey: SECRET, fetchImpl: falseOk.impl }).startPayment(startInput),
    ).rejects.toThrow(/Duplicate Transaction Reference/);
    const html = fakeFetch({ status: 502, text: '<html>Bad gateway</html>' });
    await expect(
      createPaystackProvider({ secretKey: SECRET, fetchImpl: html.impl }).startPayment(startInput),
    ).rejects.toThrow();
  });

  it('throws when the network fails', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(
      createPaystackProvider({ secretKey: SECRET, fetchImpl: failing }).startPayment(startInput),
    ).rejects.toThrow('fetch failed');
  });
});

describe('refund', () => {
  it('POSTs the transaction reference and the amount in kobo to /refund', async () => {
    const fetch = fakeFetch({ json: { status: true, message: 'Refund has been queued', data: { id: 1 } } });
    await createPaystackProvider({ secretKey: SECRET, fetchImpl: fetch.impl }).refund('GM-REF', 250_000n);
    expect(fetch.calls[0]!.url).toBe('https://api.paystack.co/refund');
    expect(JSON.parse(String(fetch.calls[0]!.init.body))).toEqual({
      transaction: 'GM-REF',
      amount: '250000',
    });
  });
});

describe('parseWebhook', () => {
  const provider = createPaystackProvider({ secretKey: SECRET, fetchImpl: fakeFetch().impl });

  it('accepts a signed charge.success and reads reference, amount (kobo) and currency', () => {
    const raw = Buffer.from(JSON.stringify(chargeSuccess()));
    expect(provider.parseWebhook(raw, { 'x-paystack-signature': sign(raw) })).toEqual({
      type: 'payment.succeeded',
      reference: 'GM-0123456789ABCDEF0123',
      amount: 500_000n,
      currency: 'NGN',
    });
  });

  it('accepts the body exactly as sent, whitespace included', () => {
    const raw = Buffer.from(JSON.stringify(chargeSuccess(), null, 2));
    expect(provider.parseWebhook(raw, { 'x-paystack-signature': sign(raw) }).type).toBe('payment.succeeded');
  });

  it('refuses a missing signature', () => {
    const raw = Buffer.from(JSON.stringify(chargeSuccess()));
    expect(() => provider.parseWebhook(raw, {})).toThrow(InvalidSignatureError);
    expect(() => provider.parseWebhook(raw, { 'x-paystack-signature': '' })).toThrow(InvalidSignatureError);
  });

  it('refuses a signature made with another key, a SHA-256 one, or a truncated one', () => {
    const raw = Buffer.from(JSON.stringify(chargeSuccess()));
    for (const signature of [
      sign(raw, 'sk_test_someone_else'),
      createHmac('sha256', SECRET).update(raw).digest('hex'),
      sign(raw).slice(0, 64),
      `${sign(raw)}00`,
    ]) {
      expect(() => provider.parseWebhook(raw, { 'x-paystack-signature': signature })).toThrow(
        InvalidSignatureError,
      );
    }
  });

  it('refuses a body changed by one byte after signing', () => {
    const text = JSON.stringify(chargeSuccess());
    const signature = sign(text);
    const altered = [
      text.replace('"amount":500000', '"amount":500001'),
      text.replace('GM-0123456789ABCDEF0123', 'GM-0123456789ABCDEF0124'),
      `${text} `,
    ];
    for (const body of altered) {
      expect(body).not.toBe(text);
      expect(() => provider.parseWebhook(Buffer.from(body), { 'x-paystack-signature': signature })).toThrow(
        InvalidSignatureError,
      );
    }
  });

  it('ignores other events such as transfer.success', () => {
    const raw = Buffer.from(JSON.stringify(transferSuccess));
    expect(provider.parseWebhook(raw, { 'x-paystack-signature': sign(raw) })).toEqual({
      type: 'ignored',
      event: 'transfer.success',
    });
  });

  it('still checks the signature of an event it ignores', () => {
    const raw = Buffer.from(JSON.stringify(transferSuccess));
    expect(() => provider.parseWebhook(raw, { 'x-paystack-signature': sign('{}') })).toThrow(
      InvalidSignatureError,
    );
  });
});

describe('an app configured with PAYMENT_PROVIDER=paystack', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_x' });
  });
  afterAll(() => t.close());

  it('has the Paystack webhook and neither the sandbox webhook nor the sandbox checkout', async () => {
    expect(t.app.hasRoute({ method: 'POST', url: '/api/v1/payments/paystack/webhook' })).toBe(true);
    expect(t.app.hasRoute({ method: 'POST', url: '/api/v1/payments/sandbox/webhook' })).toBe(false);
    expect(t.app.hasRoute({ method: 'GET', url: '/checkout/:paymentId' })).toBe(false);
    expect(t.app.hasRoute({ method: 'POST', url: '/checkout/:paymentId' })).toBe(false);

    const raw = JSON.stringify(chargeSuccess({ reference: 'GM-NOT-AN-ORDER-OF-OURS' }));
    const paystack = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/paystack/webhook',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw, 'sk_test_x') },
      payload: raw,
    });
    // The route exists: a verified event for an order we do not have is "That order was not found".
    expect(paystack.statusCode).toBe(404);
    expect(paystack.json()).toEqual({ code: 'NOT_FOUND', message: 'That order was not found.' });

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/paystack/webhook',
      headers: { 'content-type': 'application/json' },
      payload: raw,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });

    const sandbox = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/sandbox/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(sandbox.statusCode).toBe(404);
    expect(sandbox.json()).toMatchObject({ message: expect.stringContaining('No such API route') });

    const checkout = await t.app.inject({
      method: 'POST',
      url: '/checkout/5d2c1f3e-0000-4000-8000-000000000001',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'cardNumber=4084084084084081&action=pay',
    });
    expect(checkout.statusCode).toBe(404);
    expect(checkout.json()).toMatchObject({ message: expect.stringContaining('No such page') });
  });

  it('answers an event it has no use for with 200 so Paystack stops retrying it', async () => {
    const raw = JSON.stringify({ event: 'subscription.create', data: { subscription_code: 'SUB_1' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/paystack/webhook',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw, 'sk_test_x') },
      payload: raw,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'ignored' });
  });

  it('routes a transfer event to withdrawals; one for an unknown withdrawal is refused (404)', async () => {
    const raw = JSON.stringify(transferSuccess);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/paystack/webhook',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw, 'sk_test_x') },
      payload: raw,
    });
    expect(res.statusCode, res.body).toBe(404);
  });
});

describe('a purchase through Paystack (fetch faked, webhook signed as Paystack signs it)', () => {
  const secret = 'sk_test_paystack_purchase_flow';
  const fetch = fakeFetch({ json: initializeOk('https://checkout.paystack.com/flow123') });
  /** What the app's Paystack client calls; a test may swap in another fake Paystack. */
  let paystackFetch: typeof globalThis.fetch = fetch.impl;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let database: ReturnType<typeof connectDatabase>;
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'data/test-vitest-app',
      LOG_LEVEL: 'silent',
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: secret,
    });
    database = connectDatabase(inject('databaseUrl'), { max: 5 });
    app = await buildApp({
      config,
      db: database.db,
      logger: false,
      payments: createPaystackProvider({
        secretKey: secret,
        fetchImpl: ((input, init) => paystackFetch(input, init)) as typeof globalThis.fetch,
      }),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends the buyer to the authorization URL and issues the card on charge.success, once', async () => {
    const seller = await registerAndLogin(app, 'business');
    const card = await seller.request({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 500_000, colour: '#0f766e' },
    });
    expect(card.statusCode, card.body).toBe(201);
    const buyer = await registerAndLogin(app, 'user');
    const created = await buyer.request({
      method: 'POST',
      url: '/api/v1/orders',
      payload: { giftCardId: (card.json() as { id: string }).id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Order;
    expect(order).toMatchObject({ status: 'pending', checkoutUrl: 'https://checkout.paystack.com/flow123' });

    const sent = JSON.parse(String(fetch.calls.at(-1)!.init.body)) as Record<string, string>;
    expect(sent).toMatchObject({
      amount: '500000',
      currency: 'NGN',
      reference: order.reference,
      email: buyer.input.email,
    });
    expect(sent.callback_url).toMatch(new RegExp(`/user-dashboard/orders/${order.id}$`));

    const raw = JSON.stringify(chargeSuccess({ reference: order.reference, amount: 500_000 }));
    const deliver = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payments/paystack/webhook',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw, secret) },
        payload: raw,
      });
    const first = await deliver();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, result: 'issued' });
    const again = await deliver();
    expect(again.json()).toEqual({ received: true, result: 'already-paid' });

    const paid = (await buyer.request({ method: 'GET', url: `/api/v1/orders/${order.id}` })).json() as Order;
    expect(paid.status).toBe('paid');
    expect(paid.purchasedCardId).toEqual(expect.any(String));
    const { rows } = await database.pool.query('SELECT id FROM purchased_cards WHERE order_id = $1', [
      order.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('refuses charge.success for less than the order with 400 and issues nothing', async () => {
    const seller = await registerAndLogin(app, 'business');
    const card = await seller.request({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 500_000, colour: '#0f766e' },
    });
    const buyer = await registerAndLogin(app, 'user');
    const order = (
      await buyer.request({
        method: 'POST',
        url: '/api/v1/orders',
        payload: { giftCardId: (card.json() as { id: string }).id },
      })
    ).json() as Order;
    const raw = JSON.stringify(chargeSuccess({ reference: order.reference, amount: 5_000 }));
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/payments/paystack/webhook',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw, secret) },
      payload: raw,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_MISMATCH' });
    const { rows } = await database.pool.query('SELECT status FROM orders WHERE id = $1', [order.id]);
    expect(rows).toEqual([{ status: 'pending' }]);
  });

  /**
   * Paystack keeps each reference once: initializing it again is refused ("Duplicate Transaction
   * Reference"). The first initialize of a reference answers only when `releaseFirst` is called; with
   * `holdDuplicates`, a refusal answers only when `releaseDuplicates` is called.
   */
  function slowPaystack(options: { holdDuplicates: boolean }) {
    const known = new Set<string>();
    const calls: string[] = [];
    let releaseFirst!: () => void;
    let releaseDuplicates!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const duplicates = new Promise<void>((resolve) => (releaseDuplicates = resolve));
    const impl = (async (_input: string | URL | Request, init?: RequestInit) => {
      const { reference } = JSON.parse(String(init?.body)) as { reference: string };
      calls.push(reference);
      if (known.has(reference)) {
        if (options.holdDuplicates) await duplicates;
        return Response.json({ status: false, message: 'Duplicate Transaction Reference' }, { status: 400 });
      }
      known.add(reference);
      await first;
      return Response.json(initializeOk(`https://checkout.paystack.com/${reference}`));
    }) as typeof globalThis.fetch;
    return { impl, calls, releaseFirst, releaseDuplicates };
  }

  async function until(condition: () => boolean) {
    for (let waited = 0; !condition(); waited += 5) {
      if (waited > 10_000) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async function buyerAndCard() {
    const seller = await registerAndLogin(app, 'business');
    const card = await seller.request({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 500_000, colour: '#0f766e' },
    });
    const buyer = await registerAndLogin(app, 'user');
    const key = `paystack-retry-${Date.now()}-${Math.random()}`;
    const post = () =>
      buyer.request({
        method: 'POST',
        url: '/api/v1/orders',
        payload: { giftCardId: (card.json() as { id: string }).id },
        headers: { 'idempotency-key': key },
      });
    const orderRows = async () =>
      (
        await database.pool.query<{ id: string; status: string; checkout_url: string | null }>(
          'SELECT id, status, checkout_url FROM orders WHERE buyer_id = $1',
          [buyer.account.id],
        )
      ).rows;
    return { post, orderRows };
  }

  it('a retry with the same key while the first start is in flight never fails the order (refused first)', async () => {
    const paystack = slowPaystack({ holdDuplicates: false });
    paystackFetch = paystack.impl;
    try {
      const { post, orderRows } = await buyerAndCard();
      const first = post();
      await until(() => paystack.calls.length === 1);

      // The retry's start is refused by Paystack before the first one is answered: try again later.
      const retry = await post();
      expect(retry.statusCode, retry.body).toBe(502);
      expect(retry.json()).toMatchObject({ code: 'PAYMENT_PROVIDER_ERROR' });
      expect(await orderRows()).toEqual([expect.objectContaining({ status: 'pending', checkout_url: null })]);

      paystack.releaseFirst();
      const answered = await first;
      expect(answered.statusCode, answered.body).toBe(201);
      const order = answered.json() as Order;
      expect(order).toMatchObject({
        status: 'pending',
        checkoutUrl: `https://checkout.paystack.com/${order.reference}`,
      });

      const later = await post();
      expect(later.statusCode, later.body).toBe(200);
      expect(later.json()).toEqual(order);
      expect(await orderRows()).toEqual([
        { id: order.id, status: 'pending', checkout_url: order.checkoutUrl },
      ]);
    } finally {
      paystackFetch = fetch.impl;
    }
  });

  it('a retry with the same key while the first start is in flight answers the first order (refused after)', async () => {
    const paystack = slowPaystack({ holdDuplicates: true });
    paystackFetch = paystack.impl;
    try {
      const { post, orderRows } = await buyerAndCard();
      const first = post();
      await until(() => paystack.calls.length === 1);
      const retry = post();
      await until(() => paystack.calls.length === 2);

      // The first start is answered, then Paystack refuses the retry's: the retry answers the first order.
      paystack.releaseFirst();
      const answered = await first;
      expect(answered.statusCode, answered.body).toBe(201);
      paystack.releaseDuplicates();
      const replayed = await retry;
      expect(replayed.statusCode, replayed.body).toBe(200);
      expect(replayed.json()).toEqual(answered.json());
      const order = answered.json() as Order;
      expect(await orderRows()).toEqual([
        { id: order.id, status: 'pending', checkout_url: order.checkoutUrl },
      ]);
    } finally {
      paystackFetch = fetch.impl;
    }
  });
});
