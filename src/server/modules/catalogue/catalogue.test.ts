import { randomInt, randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessProfile, GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import { DEFAULT_PASSWORD, unique } from '../../../../tests/fixtures/factories';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * Gift cards over /api/v1: creating (business only, amounts in minor units), the public uniqueID, stopping and
 * resuming sales, the keyset-paged catalogue, a business's public profile and its own list. Every test makes
 * its own businesses and reads the catalogue through a filter (businessId or a search for a name no other
 * test uses), because the database is shared with other files running at the same time.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const UNIQUE_ID = /^[A-Z0-9]{3}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const MAX = 100_000_000;

const business = (name?: string) => registerAndLogin(t.app, 'business', name ? { name } : {});
const user = () => registerAndLogin(t.app, 'user');

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

function create(owner: Account, payload: Record<string, unknown>) {
  return owner.request({
    method: 'POST',
    url: '/api/v1/gift-cards',
    payload: payload as InjectOptions['payload'],
  });
}

async function createCard(
  owner: Account,
  payload: Record<string, unknown> = { amount: 500_000, colour: '#1a2b3c' },
) {
  const res = await create(owner, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as GiftCard;
}

/** Cards made one after the other, so each is strictly newer than the one before. */
async function createCards(owner: Account, n: number): Promise<GiftCard[]> {
  const made: GiftCard[] = [];
  for (let i = 0; i < n; i++)
    made.push(await createCard(owner, { amount: (i + 1) * 100, colour: '#00aa00' }));
  return made;
}

function setOnSale(owner: Account, id: string, onSale: boolean) {
  return owner.request({ method: 'PATCH', url: `/api/v1/gift-cards/${id}`, payload: { onSale } });
}

async function page(url: string, headers: Record<string, string> = {}): Promise<GiftCardPage> {
  const res = await get(url, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as GiftCardPage;
}

/** Follows nextCursor to the end; `base` already has its query string. */
async function walk(
  base: string,
  headers: Record<string, string> = {},
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const p = await page(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base, headers);
    ids.push(...p.items.map((c) => c.id));
    cursor = p.nextCursor;
    pages += 1;
    expect(pages, 'the walk never ends').toBeLessThan(100);
  } while (cursor);
  return { ids, pages };
}

function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({
    code: 'VALIDATION_FAILED',
    message,
    details: { fieldErrors: { [field]: [message] } },
  });
}

const newest = (cards: GiftCard[]) => [...cards].reverse().map((c) => c.id);

describe('POST /api/v1/gift-cards', () => {
  it('creates a card for the signed-in business and answers it in full', async () => {
    const owner = await business();
    const res = await create(owner, { amount: 500_000, colour: '#1a2b3c' });
    expect(res.statusCode, res.body).toBe(201);
    const card = res.json() as GiftCard;
    expect(card).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      uniqueId: expect.stringMatching(UNIQUE_ID),
      businessId: owner.account.id,
      businessName: owner.input.name,
      brandLogoUrl: null,
      amount: { amount: 500_000, currency: 'NGN' },
      colour: '#1a2b3c',
      onSale: true,
      soldCount: 0,
      validityMonths: null,
      createdAt: expect.any(String),
    });
    expect(Math.abs(Date.now() - Date.parse(card.createdAt))).toBeLessThan(60_000);

    const fetched = await get(`/api/v1/gift-cards/${card.id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(card);
  });

  it('stores the amount as a bigint of minor units with the platform currency', async () => {
    const owner = await business();
    const card = await createCard(owner, { amount: 1_234_567, colour: '#abcdef' });
    const { rows } = await t.database.pool.query<{ amount: string; currency: string }>(
      'SELECT amount::text AS amount, currency FROM gift_cards WHERE id = $1',
      [card.id],
    );
    expect(rows).toEqual([{ amount: '1234567', currency: 'NGN' }]);
  });

  it('refuses a signed-out request with 401', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 500_000, colour: '#1a2b3c' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
  });

  it('refuses a user with 403', async () => {
    const buyer = await user();
    const res = await create(buyer, { amount: 500_000, colour: '#1a2b3c' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a business can do this.' });
  });

  it('refuses a cookie-authenticated create from another site (CSRF)', async () => {
    const owner = await business();
    const res = await owner.request({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 500_000, colour: '#1a2b3c' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    const own = await page(`/api/v1/businesses/${owner.account.id}/gift-cards`, { cookie: owner.cookie });
    expect(own.items).toEqual([]);
  });

  it('lets an API client create with a Bearer token and no Origin', async () => {
    const owner = await business();
    const tokenRes = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/tokens',
      payload: { email: owner.input.email, password: DEFAULT_PASSWORD },
      remoteAddress: freshIp(),
    });
    expect(tokenRes.statusCode, tokenRes.body).toBe(201);
    const { token } = tokenRes.json() as { token: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 250_000, colour: '#FFFFFF' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ businessId: owner.account.id, colour: '#ffffff' });
  });

  describe('amount (integer minor units, 1 to GIFT_CARD_MAX_AMOUNT_MINOR)', () => {
    it.each([
      ['zero', 0, 'the amount must be more than 0'],
      ['negative', -500, 'the amount must be more than 0'],
      ['not whole (1.5)', 1.5, 'the amount must be a whole number of minor units: 500000 is ₦5,000.00'],
      ['one over the maximum', MAX + 1, 'the amount can be at most ₦1,000,000.00'],
      ['far over the maximum', Number.MAX_SAFE_INTEGER, 'the amount can be at most ₦1,000,000.00'],
      ['a string', '5000', 'the amount must be a number of minor units: 500000 is ₦5,000.00'],
      ['null', null, 'the amount must be a number of minor units: 500000 is ₦5,000.00'],
      ['missing', undefined, 'please enter an amount'],
    ])('refuses an amount that is %s', async (_name, amount, message) => {
      const owner = await business();
      const body: Record<string, unknown> = { colour: '#1a2b3c' };
      if (amount !== undefined) body.amount = amount;
      expectValidation(await create(owner, body), 'amount', message);
      const own = await page(`/api/v1/businesses/${owner.account.id}/gift-cards`, { cookie: owner.cookie });
      expect(own.items).toEqual([]);
    });

    it('accepts exactly the maximum and the smallest amount, 1', async () => {
      const owner = await business();
      expect((await createCard(owner, { amount: MAX, colour: '#123456' })).amount).toEqual({
        amount: MAX,
        currency: 'NGN',
      });
      expect((await createCard(owner, { amount: 1, colour: '#123456' })).amount).toEqual({
        amount: 1,
        currency: 'NGN',
      });
    });

    it('follows GIFT_CARD_MAX_AMOUNT_MINOR and says the limit in money', async () => {
      const small = await createTestApp({ GIFT_CARD_MAX_AMOUNT_MINOR: '500000' });
      try {
        const owner = await registerAndLogin(small.app, 'business');
        const over = await owner.request({
          method: 'POST',
          url: '/api/v1/gift-cards',
          payload: { amount: 500_001, colour: '#123456' },
        });
        expectValidation(over, 'amount', 'the amount can be at most ₦5,000.00');
        const at = await owner.request({
          method: 'POST',
          url: '/api/v1/gift-cards',
          payload: { amount: 500_000, colour: '#123456' },
        });
        expect(at.statusCode, at.body).toBe(201);
      } finally {
        await small.close();
      }
    });
  });

  describe('colour (#RRGGBB)', () => {
    it.each([
      ['missing', undefined, 'please choose a colour'],
      ['empty', '', 'please choose a colour'],
      ['blank', '   ', 'please choose a colour'],
      ['a name', 'red', 'a colour is written like #1A2B3C'],
      ['5 digits', '#12345', 'a colour is written like #1A2B3C'],
      ['7 digits', '#1234567', 'a colour is written like #1A2B3C'],
      ['not hex', '#GGGGGG', 'a colour is written like #1A2B3C'],
      ['without #', '1a2b3c', 'a colour is written like #1A2B3C'],
      ['short form', '#abc', 'a colour is written like #1A2B3C'],
    ])('refuses a colour that is %s', async (_name, colour, message) => {
      const owner = await business();
      const body: Record<string, unknown> = { amount: 500_000 };
      if (colour !== undefined) body.colour = colour;
      expectValidation(await create(owner, body), 'colour', message);
    });

    it('stores an upper-case colour in lower case', async () => {
      const owner = await business();
      const card = await createCard(owner, { amount: 500_000, colour: '#A1B2C3' });
      expect(card.colour).toBe('#a1b2c3');
      expect((await get(`/api/v1/gift-cards/${card.id}`)).json()).toMatchObject({ colour: '#a1b2c3' });
      const { rows } = await t.database.pool.query<{ colour: string }>(
        'SELECT colour FROM gift_cards WHERE id = $1',
        [card.id],
      );
      expect(rows[0]?.colour).toBe('#a1b2c3');
    });

    it('trims spaces around a colour', async () => {
      const owner = await business();
      expect((await createCard(owner, { amount: 500_000, colour: ' #0F0F0F ' })).colour).toBe('#0f0f0f');
    });
  });

  it('names every bad field in details and the amount first in message', async () => {
    const owner = await business();
    const res = await create(owner, { amount: 0, colour: 'red' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'the amount must be more than 0',
      details: {
        fieldErrors: {
          amount: ['the amount must be more than 0'],
          colour: ['a colour is written like #1A2B3C'],
        },
      },
    });
  });
});

describe('uniqueID', () => {
  it.each([
    ['Acme Foods', 'ACM'],
    ['acme foods (lower case)', 'ACM'],
    ['9ja Bites', '9JA'],
    ['Ōsaka Tea', 'OSA'],
    ['Café Noir', 'CAF'],
    ['A & B. Stores', 'ABS'],
  ])('takes its prefix from the business name %j', async (name, prefix) => {
    const owner = await business(`${name} ${unique()}`);
    const card = await createCard(owner);
    expect(card.uniqueId).toMatch(UNIQUE_ID);
    expect(card.uniqueId.slice(0, 4)).toBe(`${prefix}-`);
  });

  it('pads the prefix with X when the name has fewer than three Latin letters or digits', async () => {
    const cjk = Array.from({ length: 8 }, () => String.fromCodePoint(0x4e00 + randomInt(20_000))).join('');
    const owner = await business(`Q ${cjk}`);
    const card = await createCard(owner);
    expect(card.uniqueId).toMatch(UNIQUE_ID);
    expect(card.uniqueId.startsWith('QXX-')).toBe(true);
  });

  it('is different for each of 200 cards of one business', async () => {
    const owner = await business(`Kiosk ${unique()}`);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const made = await Promise.all(
        Array.from({ length: 20 }, () => createCard(owner, { amount: 100, colour: '#000000' })),
      );
      ids.push(...made.map((c) => c.uniqueId));
    }
    expect(ids).toHaveLength(200);
    for (const id of ids) {
      expect(id).toMatch(UNIQUE_ID);
      expect(id.startsWith('KIO-')).toBe(true);
    }
    expect(new Set(ids).size).toBe(200);
    const { rows } = await t.database.pool.query<{ n: number }>(
      'SELECT count(DISTINCT unique_id)::int AS n FROM gift_cards WHERE business_id = $1',
      [owner.account.id],
    );
    expect(rows[0]?.n).toBe(200);
  });
});

describe('GET /api/v1/gift-cards/:id', () => {
  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    const unknown = await get(`/api/v1/gift-cards/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That gift card was not found.' });
    expectValidation(await get('/api/v1/gift-cards/not-a-uuid'), 'id', 'That is not a gift card id.');
  });
});

describe('PATCH /api/v1/gift-cards/:id (stop and resume selling)', () => {
  it('takes a stopped card out of the catalogue but keeps it readable, and resuming brings it back', async () => {
    const owner = await business();
    const [kept, stopped] = await createCards(owner, 2);
    const catalogue = `/api/v1/gift-cards?businessId=${owner.account.id}`;
    expect((await page(catalogue)).items.map((c) => c.id)).toEqual([stopped!.id, kept!.id]);

    const stop = await setOnSale(owner, stopped!.id, false);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({ id: stopped!.id, onSale: false, uniqueId: stopped!.uniqueId });

    expect((await page(catalogue)).items.map((c) => c.id)).toEqual([kept!.id]);
    const one = await get(`/api/v1/gift-cards/${stopped!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ ...stopped, onSale: false });
    expect((await get(`/api/v1/businesses/${owner.account.id}`)).json()).toMatchObject({ cardCount: 1 });

    const resume = await setOnSale(owner, stopped!.id, true);
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json()).toMatchObject({ id: stopped!.id, onSale: true });
    expect((await page(catalogue)).items.map((c) => c.id)).toEqual([stopped!.id, kept!.id]);
    expect((await get(`/api/v1/gift-cards/${stopped!.id}`)).json()).toMatchObject({ onSale: true });
    expect((await get(`/api/v1/businesses/${owner.account.id}`)).json()).toMatchObject({ cardCount: 2 });
  });

  it('is idempotent: stopping a stopped card leaves it stopped', async () => {
    const owner = await business();
    const card = await createCard(owner);
    expect((await setOnSale(owner, card.id, false)).statusCode).toBe(200);
    const again = await setOnSale(owner, card.id, false);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ onSale: false });
  });

  it('refuses another business with 403 and leaves the card on sale', async () => {
    const owner = await business();
    const other = await business();
    const card = await createCard(owner);
    const res = await setOnSale(other, card.id, false);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only change your own gift cards.' });
    expect((await get(`/api/v1/gift-cards/${card.id}`)).json()).toMatchObject({ onSale: true });
    expect((await page(`/api/v1/gift-cards?businessId=${owner.account.id}`)).items.map((c) => c.id)).toEqual([
      card.id,
    ]);
  });

  it('refuses a user with 403 and a signed-out request with 401', async () => {
    const owner = await business();
    const card = await createCard(owner);
    const buyer = await user();
    const asUser = await setOnSale(buyer, card.id, false);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a business can do this.' });
    const signedOut = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${card.id}`,
      payload: { onSale: false },
    });
    expect(signedOut.statusCode).toBe(401);
    expect((await get(`/api/v1/gift-cards/${card.id}`)).json()).toMatchObject({ onSale: true });
  });

  it('answers an unknown id with 404 and a malformed id with 400', async () => {
    const owner = await business();
    const unknown = await setOnSale(owner, randomUUID(), false);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That gift card was not found.' });
    expectValidation(await setOnSale(owner, 'not-a-uuid', false), 'id', 'That is not a gift card id.');
  });

  it.each([
    ['a string', { onSale: 'no' }],
    ['missing', {}],
    ['null', { onSale: null }],
  ])('refuses onSale that is %s', async (_name, payload) => {
    const owner = await business();
    const card = await createCard(owner);
    const res = await owner.request({ method: 'PATCH', url: `/api/v1/gift-cards/${card.id}`, payload });
    expectValidation(res, 'onSale', 'onSale must be true or false');
    expect((await get(`/api/v1/gift-cards/${card.id}`)).json()).toMatchObject({ onSale: true });
  });
});

describe('GET /api/v1/gift-cards (catalogue)', () => {
  it('lists cards newest first', async () => {
    const owner = await business();
    const made = await createCards(owner, 4);
    const p = await page(`/api/v1/gift-cards?businessId=${owner.account.id}`);
    expect(p.items.map((c) => c.id)).toEqual(newest(made));
    expect(p.nextCursor).toBeNull();
    const times = p.items.map((c) => Date.parse(c.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(p.items[0]).toEqual(made[3]);
  });

  it('answers 24 cards by default and honours limit', async () => {
    const owner = await business();
    await Promise.all(Array.from({ length: 26 }, () => createCard(owner)));
    const first = await page(`/api/v1/gift-cards?businessId=${owner.account.id}`);
    expect(first.items).toHaveLength(24);
    expect(first.nextCursor).toEqual(expect.any(String));
    const two = await page(`/api/v1/gift-cards?businessId=${owner.account.id}&limit=2`);
    expect(two.items.map((c) => c.id)).toEqual(first.items.slice(0, 2).map((c) => c.id));
  });

  it.each([
    ['0', 'limit=0'],
    ['101', 'limit=101'],
    ['not a number', 'limit=abc'],
    ['not whole', 'limit=2.5'],
  ])('refuses a limit that is %s', async (_name, query) => {
    const res = await get(`/api/v1/gift-cards?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { limit: [expect.any(String)] } },
    });
  });

  it('walks every card exactly once with cursor, in order, without an empty last page', async () => {
    const owner = await business();
    const made = await createCards(owner, 7);
    const { ids, pages } = await walk(`/api/v1/gift-cards?businessId=${owner.account.id}&limit=3`);
    expect(ids).toEqual(newest(made));
    expect(pages).toBe(3);

    const exact = await business();
    const six = await createCards(exact, 6);
    const even = await walk(`/api/v1/gift-cards?businessId=${exact.account.id}&limit=3`);
    expect(even.ids).toEqual(newest(six));
    expect(even.pages).toBe(2);
  });

  it('keeps pages stable while cards are added: each original card exactly once, no duplicates', async () => {
    const owner = await business();
    const originals = await createCards(owner, 12);
    const base = `/api/v1/gift-cards?businessId=${owner.account.id}&limit=2`;
    const first = await page(base);
    expect(first.items.map((c) => c.id)).toEqual(newest(originals).slice(0, 2));

    const added: GiftCard[] = [];
    const insertMore = (async () => {
      for (let i = 0; i < 10; i++) added.push(await createCard(owner, { amount: 999, colour: '#ff0000' }));
    })();
    const seen = first.items.map((c) => c.id);
    const walking = (async () => {
      let cursor = first.nextCursor;
      while (cursor) {
        const next = await page(`${base}&cursor=${encodeURIComponent(cursor)}`);
        seen.push(...next.items.map((c) => c.id));
        cursor = next.nextCursor;
      }
    })();
    await Promise.all([insertMore, walking]);

    expect(added).toHaveLength(10);
    expect(new Set(seen).size).toBe(seen.length);
    // The added cards are newer than page 1, so the later pages hold exactly the rest of the originals.
    expect(seen).toEqual(newest(originals));
    // And a fresh walk now shows all 22, each once.
    const after = await walk(base);
    expect(after.ids).toEqual([...newest(added), ...newest(originals)]);
  });

  it('searches by business name, case-insensitively, anywhere in the name', async () => {
    const tag = unique();
    const kola = await business(`Kola Nut House ${tag}`);
    const other = await business(`Palm Wine Bar ${tag}x`);
    const kolaCards = await createCards(kola, 2);
    await createCards(other, 1);

    const upper = await page(`/api/v1/gift-cards?q=${encodeURIComponent(`NUT HOUSE ${tag}`.toUpperCase())}`);
    expect(upper.items.map((c) => c.id)).toEqual(newest(kolaCards));
    expect(upper.items.every((c) => c.businessName === kola.input.name)).toBe(true);

    const both = await page(`/api/v1/gift-cards?q=${encodeURIComponent(tag)}`);
    expect(new Set(both.items.map((c) => c.businessId))).toEqual(
      new Set([kola.account.id, other.account.id]),
    );
    expect(both.items).toHaveLength(3);

    const none = await page(`/api/v1/gift-cards?q=${encodeURIComponent(`no such shop ${unique()}`)}`);
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('treats % and _ in a search as plain characters', async () => {
    const tag = unique();
    const underscore = await business(`Tea_Room ${tag}`);
    const lookalike = await business(`TeaXRoom ${tag}`);
    await createCard(underscore);
    await createCard(lookalike);
    const exact = await page(`/api/v1/gift-cards?q=${encodeURIComponent(`tea_room ${tag}`)}`);
    expect(exact.items.map((c) => c.businessId)).toEqual([underscore.account.id]);
    const percent = await page(`/api/v1/gift-cards?q=${encodeURIComponent(`Room%${tag}`)}`);
    expect(percent.items).toEqual([]);
  });

  it('pages through search results with cursor', async () => {
    const tag = unique();
    const shop = await business(`Suya Spot ${tag}`);
    const made = await createCards(shop, 5);
    const { ids } = await walk(`/api/v1/gift-cards?q=${encodeURIComponent(`suya spot ${tag}`)}&limit=2`);
    expect(ids).toEqual(newest(made));
  });

  it('filters by businessId, and a malformed businessId is a 400', async () => {
    const a = await business();
    const b = await business();
    const aCards = await createCards(a, 2);
    await createCards(b, 2);
    const onlyA = await page(`/api/v1/gift-cards?businessId=${a.account.id}`);
    expect(onlyA.items.map((c) => c.id)).toEqual(newest(aCards));
    expect((await page(`/api/v1/gift-cards?businessId=${randomUUID()}`)).items).toEqual([]);
    const bad = await get('/api/v1/gift-cards?businessId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { businessId: [expect.any(String)] } },
    });
  });

  it('lists the newest cards on sale across businesses without a filter', async () => {
    const owner = await business();
    const [stopped, onSale] = await createCards(owner, 2);
    await setOnSale(owner, stopped!.id, false);
    const p = await page('/api/v1/gift-cards?limit=100');
    expect(p.items.length).toBeGreaterThan(0);
    expect(p.items.every((c) => c.onSale)).toBe(true);
    const times = p.items.map((c) => Date.parse(c.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(p.items.some((c) => c.id === stopped!.id)).toBe(false);
    // Other files add cards at the same time; ours is in the page unless 100 newer ones pushed it out.
    const pushedOut =
      p.items.length === 100 && Date.parse(p.items[99]!.createdAt) >= Date.parse(onSale!.createdAt);
    expect(pushedOut || p.items.some((c) => c.id === onSale!.id)).toBe(true);
  });

  const forged = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    ['garbage', 'not-a-cursor'],
    ['without a separator', forged('2024-01-01T00:00:00.000000Z')],
    ['with a short time', forged(`2024-01-01|${randomUUID()}`)],
    ['with a time that is no date', forged(`2024-13-45T25:61:61.000000Z|${randomUUID()}`)],
    ['with the 30th of February', forged(`2023-02-30T00:00:00.000000Z|${randomUUID()}`)],
    ['with the year 0', forged(`0000-01-01T00:00:00.000000Z|${randomUUID()}`)],
    ['with an id that is no uuid', forged(`2024-01-01T00:00:00.000000Z|${'-'.repeat(36)}`)],
    ['too long', 'a'.repeat(201)],
  ])('refuses a cursor that is %s with 400', async (_name, cursor) => {
    const res = await get(`/api/v1/gift-cards?cursor=${encodeURIComponent(cursor)}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { cursor: [expect.any(String)] } },
    });
  });

  it('says what to do about a cursor it did not give out', async () => {
    const res = await get(`/api/v1/gift-cards?cursor=${forged('x|y')}`);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'That page cursor is not valid. Start again from the first page.',
      details: { fieldErrors: { cursor: ['not a cursor this API gave out'] } },
    });
  });
});

describe('GET /api/v1/businesses/:businessId (public profile)', () => {
  it('answers name, logoUrl and the number of cards on sale, to anyone', async () => {
    const owner = await business();
    const fresh = await get(`/api/v1/businesses/${owner.account.id}`);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({
      id: owner.account.id,
      name: owner.input.name,
      logoUrl: null,
      cardCount: 0,
    });

    const [a] = await createCards(owner, 3);
    await setOnSale(owner, a!.id, false);
    const profile = (await get(`/api/v1/businesses/${owner.account.id}`)).json() as BusinessProfile;
    expect(profile).toEqual({ id: owner.account.id, name: owner.input.name, logoUrl: null, cardCount: 2 });
    expect(Object.keys(profile).sort()).toEqual(['cardCount', 'id', 'logoUrl', 'name']);
  });

  it('answers an unknown id and a user’s id with 404, a malformed id with 400', async () => {
    const unknown = await get(`/api/v1/businesses/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That business was not found.' });
    const buyer = await user();
    expect((await get(`/api/v1/businesses/${buyer.account.id}`)).statusCode).toBe(404);
    expectValidation(await get('/api/v1/businesses/xyz'), 'businessId', 'That is not a business id.');
  });
});

describe('GET /api/v1/businesses/:businessId/gift-cards (own cards)', () => {
  it('lists all the business’s own cards, stopped ones included, newest first, with paging', async () => {
    const owner = await business();
    const made = await createCards(owner, 5);
    await setOnSale(owner, made[1]!.id, false);
    await setOnSale(owner, made[3]!.id, false);
    const url = `/api/v1/businesses/${owner.account.id}/gift-cards`;
    const all = await page(url, { cookie: owner.cookie });
    expect(all.items.map((c) => c.id)).toEqual(newest(made));
    expect(all.items.map((c) => c.onSale)).toEqual([true, false, true, false, true]);
    expect(all.nextCursor).toBeNull();
    expect(all.total).toBe(5);
    expect((await page(`${url}?limit=2`, { cookie: owner.cookie })).total).toBe(5);
    const { ids, pages } = await walk(`${url}?limit=2`, { cookie: owner.cookie });
    expect(ids).toEqual(newest(made));
    expect(pages).toBe(3);
  });

  it('refuses another business and a user with 403, and a signed-out request with 401', async () => {
    const owner = await business();
    await createCard(owner);
    const url = `/api/v1/businesses/${owner.account.id}/gift-cards`;
    const other = await business();
    const asOther = await get(url, { cookie: other.cookie });
    expect(asOther.statusCode).toBe(403);
    expect(asOther.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only act on your own business.' });
    const buyer = await user();
    const asUser = await get(url, { cookie: buyer.cookie });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await get(url)).statusCode).toBe(401);
  });

  it('sorts by best-selling (most sold first, then newest) in one page', async () => {
    const owner = await business();
    const [a, b, c, d] = await createCards(owner, 4);
    const sold = { [a!.id]: 2, [b!.id]: 9, [c!.id]: 0, [d!.id]: 2 };
    for (const [id, n] of Object.entries(sold)) {
      await t.database.pool.query('UPDATE gift_cards SET sold_count = $2 WHERE id = $1', [id, n]);
    }
    await setOnSale(owner, b!.id, false);
    const url = `/api/v1/businesses/${owner.account.id}/gift-cards?sort=best-selling`;
    const best = await page(url, { cookie: owner.cookie });
    expect(best.items.map((x) => x.id)).toEqual([b!.id, d!.id, a!.id, c!.id]);
    expect(best.items.map((x) => x.soldCount)).toEqual([9, 2, 2, 0]);
    expect(best.nextCursor).toBeNull();
    const top2 = await page(`${url}&limit=2`, { cookie: owner.cookie });
    expect(top2.items.map((x) => x.id)).toEqual([b!.id, d!.id]);
    expect(top2.nextCursor).toBeNull();
    const byNewest = await page(`/api/v1/businesses/${owner.account.id}/gift-cards?sort=newest`, {
      cookie: owner.cookie,
    });
    expect(byNewest.items.map((x) => x.id)).toEqual([d!.id, c!.id, b!.id, a!.id]);
  });

  it('refuses a cursor with sort=best-selling, an unknown sort and a bad cursor with 400', async () => {
    const owner = await business();
    await createCard(owner);
    const url = `/api/v1/businesses/${owner.account.id}/gift-cards`;
    const withCursor = await get(`${url}?sort=best-selling&cursor=x`, { cookie: owner.cookie });
    expect(withCursor.statusCode).toBe(400);
    expect(withCursor.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Best-selling lists have one page; leave out the cursor.',
    });
    const badSort = await get(`${url}?sort=cheapest`, { cookie: owner.cookie });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { sort: [expect.any(String)] } },
    });
    const badCursor = await get(`${url}?cursor=nonsense`, { cookie: owner.cookie });
    expect(badCursor.statusCode).toBe(400);
  });
});

/** A schema with every `$ref` to components/schemas replaced by what it points at. */
function inline(schema: unknown, components: Record<string, unknown>, depth = 0): unknown {
  if (depth > 20 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, depth + 1));
  const ref = (schema as { $ref?: string }).$ref;
  if (ref?.startsWith('#/components/schemas/')) {
    const target = components[ref.slice('#/components/schemas/'.length)];
    expect(target, `${ref} exists`).toBeDefined();
    return inline(target, components, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, components, depth + 1)]));
}

describe('OpenAPI document', () => {
  it('describes every gift-card and business route with its request and response schemas', async () => {
    // Another app in this process with another maximum must not change this app's document.
    const other = await createTestApp({ GIFT_CARD_MAX_AMOUNT_MINOR: '700000' });
    const otherDoc = (await other.app.inject({ method: 'GET', url: '/api/docs/json' })).body;
    await other.close();
    expect(otherDoc).toContain('"maximum":700000');
    const res = await get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    type Operation = {
      requestBody?: { content: Record<string, { schema: unknown }> };
      parameters?: { name: string; in: string }[];
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    const doc = res.json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    const op = (path: string, method: string) => {
      const found = doc.paths[path]?.[method];
      expect(found, `${method.toUpperCase()} ${path} is in the document`).toBeDefined();
      return found!;
    };
    const jsonBody = (o: Operation) =>
      inline(o.requestBody?.content['application/json']?.schema, doc.components.schemas);
    const response = (o: Operation, status: string) =>
      inline(o.responses[status]?.content?.['application/json']?.schema, doc.components.schemas);

    const create = op('/api/v1/gift-cards', 'post');
    expect(jsonBody(create)).toBeDefined();
    expect(jsonBody(create)).toMatchObject({
      type: 'object',
      properties: {
        amount: { type: 'integer', exclusiveMinimum: 0, maximum: MAX },
        colour: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      },
      required: expect.arrayContaining(['amount', 'colour']),
    });
    for (const status of ['201', '400', '401', '403']) expect(response(create, status), status).toBeDefined();

    const list = op('/api/v1/gift-cards', 'get');
    expect(list.parameters?.map((p) => p.name).sort()).toEqual(['businessId', 'cursor', 'limit', 'q']);
    expect(response(list, '200')).toMatchObject({ properties: { items: { type: 'array' }, nextCursor: {} } });

    const one = op('/api/v1/gift-cards/{id}', 'get');
    expect(one.parameters?.map((p) => p.name)).toEqual(['id']);
    expect(response(one, '200')).toBeDefined();
    expect(response(one, '404')).toBeDefined();

    const patch = op('/api/v1/gift-cards/{id}', 'patch');
    expect(jsonBody(patch)).toMatchObject({
      properties: { onSale: { type: 'boolean' } },
      required: ['onSale'],
    });
    for (const status of ['200', '400', '401', '403', '404'])
      expect(response(patch, status), status).toBeDefined();

    const profile = op('/api/v1/businesses/{businessId}', 'get');
    expect(response(profile, '200')).toMatchObject({
      properties: { cardCount: { type: 'integer' }, logoUrl: {} },
    });
    expect(response(profile, '404')).toBeDefined();

    const own = op('/api/v1/businesses/{businessId}/gift-cards', 'get');
    expect(own.parameters?.map((p) => p.name).sort()).toEqual(['businessId', 'cursor', 'limit', 'sort']);
    for (const status of ['200', '400', '401', '403']) expect(response(own, status), status).toBeDefined();
  });
});
