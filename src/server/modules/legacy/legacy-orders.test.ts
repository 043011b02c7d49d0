import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * The old client's purchase (`POST /api/buyagiftcard/:userID/:businessID/:giftcardID`): a pending order and
 * its checkout link in the old `{ message, data }` envelope, through the same purchase service, session and
 * ownership checks as /api/v1. No card is issued until the provider confirms the payment.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

async function cardOf(business: Account, moneyWorth = 5000): Promise<string> {
  const res = await business.request({
    method: 'POST',
    url: `/api/generateyourgiftcard/${business.account.id}`,
    payload: { moneyWorth, colour: '#1a2b3c' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: { _id: string } }).data._id;
}

const buyUrl = (userId: string, businessId: string, cardId: string) =>
  `/api/buyagiftcard/${userId}/${businessId}/${cardId}`;

describe('POST /api/buyagiftcard/:userID/:businessID/:giftcardID', () => {
  it('answers 201 with a pending order and its checkout link, and issues no card before payment', async () => {
    const business = await registerAndLogin(t.app, 'business');
    const user = await registerAndLogin(t.app, 'user');
    const cardId = await cardOf(business, 5000);
    const res = await user.request({
      method: 'POST',
      url: buyUrl(user.account.id, business.account.id, cardId),
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as {
      message: string;
      data: { _id: string; checkoutUrl: string; status: string; moneyWorth: number };
    };
    expect(body).toEqual({
      message: expect.stringMatching(/pay/i),
      data: {
        _id: expect.any(String),
        reference: expect.any(String),
        status: 'pending',
        moneyWorth: 5000,
        giftcardID: cardId,
        businessID: business.account.id,
        checkoutUrl: expect.stringMatching(/\S/),
      },
    });
    // The same order /api/v1 knows: pending, no card issued.
    const order = await user.request({ method: 'GET', url: `/api/v1/orders/${body.data._id}` });
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({
      status: 'pending',
      purchasedCardId: null,
      checkoutUrl: body.data.checkoutUrl,
      amount: { amount: 500_000 },
    });
  });

  it('needs the session of the user named in the path: signed out 401, another user or a business 403', async () => {
    const business = await registerAndLogin(t.app, 'business');
    const user = await registerAndLogin(t.app, 'user');
    const other = await registerAndLogin(t.app, 'user');
    const cardId = await cardOf(business);
    const url = buyUrl(user.account.id, business.account.id, cardId);

    const signedOut = await t.app.inject({ method: 'POST', url });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toMatchObject({ code: 'UNAUTHENTICATED' });

    const someoneElse = await other.request({ method: 'POST', url });
    expect(someoneElse.statusCode).toBe(403);
    expect(someoneElse.json()).toMatchObject({ code: 'FORBIDDEN' });

    const asBusiness = await business.request({
      method: 'POST',
      url: buyUrl(business.account.id, business.account.id, cardId),
    });
    expect(asBusiness.statusCode).toBe(403);
  });

  it('the card must belong to the business in the path; unknown cards are 404, bad ids 400, stopped cards 409', async () => {
    const business = await registerAndLogin(t.app, 'business');
    const another = await registerAndLogin(t.app, 'business');
    const user = await registerAndLogin(t.app, 'user');
    const cardId = await cardOf(business);

    const wrongBusiness = await user.request({
      method: 'POST',
      url: buyUrl(user.account.id, another.account.id, cardId),
    });
    expect(wrongBusiness.statusCode).toBe(404);
    expect(wrongBusiness.json()).toMatchObject({ code: 'NOT_FOUND' });

    const unknown = await user.request({
      method: 'POST',
      url: buyUrl(user.account.id, business.account.id, randomUUID()),
    });
    expect(unknown.statusCode).toBe(404);

    const badId = await user.request({
      method: 'POST',
      url: buyUrl(user.account.id, business.account.id, 'not-a-card'),
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: 'VALIDATION_FAILED' });

    const stopped = await business.request({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${cardId}`,
      payload: { onSale: false },
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const notOnSale = await user.request({
      method: 'POST',
      url: buyUrl(user.account.id, business.account.id, cardId),
    });
    expect(notOnSale.statusCode).toBe(409);
    expect(notOnSale.json()).toMatchObject({ code: 'CARD_NOT_ON_SALE' });
  });

  it('is described in the OpenAPI document with the other legacy routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const path = (res.json() as { paths: Record<string, { post?: { tags?: string[] } }> }).paths[
      '/api/buyagiftcard/{userID}/{businessID}/{giftcardID}'
    ];
    expect(path?.post?.tags).toEqual(['legacy']);
  });
});
