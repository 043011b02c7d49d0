import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/fixtures/test-app';
import { sandboxSecret } from './payments/payments';
import { createSandboxProvider } from './payments/sandbox.provider';

/**
 * The sandbox's hosted checkout is a page a person fills in, not an API: whatever they (or a stray client)
 * send, the answer is the page in words, never a 500 (issue 12: a bad id, no body, an unknown action or an
 * over-long field made the JSON error miss the route's HTML response schema).
 */
let t: TestApp;
let checkoutUrl: string;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
  const sandbox = createSandboxProvider({ db: t.database.db, secret: sandboxSecret(t.config) });
  ({ checkoutUrl } = await sandbox.startPayment({
    reference: `GM-CHECKOUT-${randomUUID()}`,
    amount: 500_000n,
    currency: 'NGN',
    email: 'buyer@example.test',
    description: 'A test gift card',
    returnUrl: '/cards',
  }));
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

function expectPage(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  words: RegExp,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  expect(res.body).toMatch(words);
}

describe('sandbox checkout: bad input gets the page with the error in words', () => {
  it('a payment id that is not a UUID is the not-found page (GET and POST)', async () => {
    expectPage(await t.app.inject({ method: 'GET', url: '/checkout/not-a-uuid' }), 404, /Payment not found/);
    expectPage(
      await t.app.inject({ method: 'POST', url: '/checkout/not-a-uuid', ...form({ action: 'cancel' }) }),
      404,
      /Payment not found/,
    );
  });

  it('an unknown payment is the not-found page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/checkout/${randomUUID()}`,
      ...form({ action: 'pay' }),
    });
    expectPage(res, 404, /Payment not found/);
  });

  it('no body: the form again, asking for the card details', async () => {
    const res = await t.app.inject({ method: 'POST', url: checkoutUrl });
    expectPage(res, 400, /role="alert">Fill in the card details/);
    expect(res.body).toMatch(/<form method="post"/);
  });

  it('an unknown action', async () => {
    const res = await t.app.inject({ method: 'POST', url: checkoutUrl, ...form({ action: 'refund' }) });
    expectPage(res, 400, /role="alert">Choose Pay or Cancel payment\./);
  });

  it.each([
    ['card number', { cardNumber: '4'.repeat(41) }, /The card number is too long/],
    ['expiry', { cardNumber: '4084084084084081', expiry: '12/30/2030/1' }, /Enter the expiry as MM\/YY\./],
    ['CVV', { cardNumber: '4084084084084081', cvv: '12345678901' }, /The CVV is the 3 or 4 digits/],
  ])('an over-long %s', async (_field, fields, words) => {
    const res = await t.app.inject({
      method: 'POST',
      url: checkoutUrl,
      ...form({ action: 'pay', ...fields }),
    });
    expectPage(res, 400, words);
  });

  it('a body of another content type is the page too, never a JSON error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: checkoutUrl,
      headers: { 'content-type': 'text/plain' },
      payload: 'pay please',
    });
    expect(res.statusCode).toBeLessThan(500);
    expectPage(res, res.statusCode, /role="alert">/);
  });

  it('the payment is still pending and can be paid after all of that', async () => {
    const page = await t.app.inject({ method: 'GET', url: checkoutUrl });
    expectPage(page, 200, /<form method="post"/);
  });
});
