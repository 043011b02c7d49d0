import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';
import {
  createTestApp,
  freshIp,
  registerAndLogin,
  tempStorage,
  type TestApp,
} from '../../../../tests/fixtures/test-app';
import { flatImage, logoForm } from '../../../../tests/fixtures/uploads';

/**
 * The old client's gift-card paths (seed §7): `{ message, data }` answers in the old shapes (`_id`, `BrandLogo`,
 * `moneyWorth` in naira, `uniqueID`), over the same services, rules and ownership checks as /api/v1.
 */
let t: TestApp;
let uploads: Awaited<ReturnType<typeof tempStorage>>;
beforeAll(async () => {
  uploads = await tempStorage();
  t = await createTestApp({}, { storage: uploads.storage });
});
afterAll(async () => {
  await t.close();
  await uploads.remove();
});

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
interface LegacyCard {
  _id: string;
  name: string;
  BrandLogo: string;
  moneyWorth: number;
  colour: string;
  uniqueID: string;
}
interface LegacyBusiness {
  _id: string;
  name: string;
  Balance: number;
  email: string;
  phoneNumber: string;
  giftCard: LegacyCard[];
  logo: string;
}

const UNIQUE_ID = /^[A-Z0-9]{3}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const LOGO_URL = /^\/uploads\/[0-9a-f-]{36}\.(png|jpg|webp)$/;

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');
const e164 = (national: string) => `+234${national.replace(/\D/g, '').slice(1)}`;

function get(url: string, who?: Account) {
  return t.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
}

function generate(who: Account, payload: Record<string, unknown>, businessId = who.account.id) {
  return who.request({
    method: 'POST',
    url: `/api/generateyourgiftcard/${businessId}`,
    payload: payload as InjectOptions['payload'],
  });
}

async function generated(who: Account, moneyWorth: unknown = 5000, colour = '#1a2b3c'): Promise<LegacyCard> {
  const res = await generate(who, { moneyWorth, colour });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: LegacyCard }).data;
}

/** Cards made one after the other, so each is newer than the one before. */
async function generatedMany(who: Account, n: number): Promise<LegacyCard[]> {
  const cards: LegacyCard[] = [];
  for (let i = 0; i < n; i++) cards.push(await generated(who, 1000 + i));
  return cards;
}

function stop(who: Account, id: string) {
  return who.request({ method: 'PATCH', url: `/api/v1/gift-cards/${id}`, payload: { onSale: false } });
}

const newestIds = (cards: LegacyCard[]) => [...cards].reverse().map((c) => c._id);

function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({
    code: 'VALIDATION_FAILED',
    message,
    details: { fieldErrors: { [field]: [message] } },
  });
}

async function minorAmount(id: string): Promise<number> {
  const res = await get(`/api/v1/gift-cards/${id}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { amount: { amount: number } }).amount.amount;
}

describe('POST /api/generateyourgiftcard/:businessId', () => {
  it('creates a card for the signed-in business and answers it in the old shape', async () => {
    const owner = await business();
    const res = await generate(owner, { moneyWorth: 5000, colour: '#1A2B3C' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: 'Gift card created successfully!',
      data: {
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: owner.input.name,
        BrandLogo: '',
        moneyWorth: 5000,
        colour: '#1a2b3c',
        uniqueID: expect.stringMatching(UNIQUE_ID),
      },
    });
    const card = (res.json() as { data: LegacyCard }).data;
    expect(await minorAmount(card._id)).toBe(500_000);
    expect(card.uniqueID.startsWith('BIZ-')).toBe(true);
  });

  it.each([
    ['a whole number', 5000, 5000, 500_000],
    ['a string with kobo', '5000.50', 5000.5, 500_050],
    ['a number with kobo', 5000.5, 5000.5, 500_050],
    ['a string with one decimal', '0.1', 0.1, 10],
    ['the smallest amount', '0.01', 0.01, 1],
    ['a string with spaces around it', ' 250 ', 250, 25_000],
    ['exactly the maximum', 1_000_000, 1_000_000, 100_000_000],
    ['exactly the maximum as a string', '1000000.00', 1_000_000, 100_000_000],
  ])('accepts moneyWorth as %s', async (_name, moneyWorth, major, minor) => {
    const owner = await business();
    const card = await generated(owner, moneyWorth);
    expect(card.moneyWorth).toBe(major);
    expect(await minorAmount(card._id)).toBe(minor);
  });

  it.each([
    ['zero', 0, 'the amount must be more than 0'],
    ['zero as a string', '0.00', 'the amount must be more than 0'],
    ['negative', -5, 'the amount must be more than 0'],
    ['negative as a string', '-5', 'the amount must be more than 0'],
    ['with 3 decimals', 12.345, 'an amount has at most 2 decimal places'],
    ['with 3 decimals as a string', '12.345', 'an amount has at most 2 decimal places'],
    ['one kobo over the maximum', 1_000_000.01, 'the amount can be at most ₦1,000,000.00'],
    ['over the maximum as a string', '1000000.01', 'the amount can be at most ₦1,000,000.00'],
    ['letters', 'abc', 'enter an amount like 5000 or 5000.50'],
    ['digits then letters', '12abc', 'enter an amount like 5000 or 5000.50'],
    ['in exponent notation', '1e3', 'enter an amount like 5000 or 5000.50'],
    ['empty', '', 'please enter an amount'],
    ['missing', undefined, 'please enter an amount'],
    ['null', null, 'please enter an amount'],
    ['a boolean', true, 'please enter an amount'],
  ])('refuses moneyWorth that is %s', async (_name, moneyWorth, message) => {
    const owner = await business();
    const body: Record<string, unknown> = { colour: '#1a2b3c' };
    if (moneyWorth !== undefined) body.moneyWorth = moneyWorth;
    expectValidation(await generate(owner, body), 'moneyWorth', message);
    const own = await get(`/api/businessgiftcard/${owner.account.id}`, owner);
    expect((own.json() as { data: LegacyBusiness }).data.giftCard).toEqual([]);
  });

  it.each([
    ['missing', undefined, 'please choose a colour'],
    ['a name', 'red', 'a colour is written like #1A2B3C'],
    ['not hex', '#GGGGGG', 'a colour is written like #1A2B3C'],
  ])('refuses a colour that is %s', async (_name, colour, message) => {
    const owner = await business();
    const body: Record<string, unknown> = { moneyWorth: 5000 };
    if (colour !== undefined) body.colour = colour;
    expectValidation(await generate(owner, body), 'colour', message);
  });

  it('refuses another business’s id with 403 and creates nothing for either', async () => {
    const owner = await business();
    const other = await business();
    const res = await generate(other, { moneyWorth: 5000, colour: '#1a2b3c' }, owner.account.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only act on your own business.' });
    for (const who of [owner, other]) {
      const own = await get(`/api/businessgiftcard/${who.account.id}`, who);
      expect((own.json() as { data: LegacyBusiness }).data.giftCard).toEqual([]);
    }
  });

  it('refuses a user with 403, a signed-out request with 401 and a malformed id with 400', async () => {
    const owner = await business();
    const buyer = await user();
    const asUser = await generate(buyer, { moneyWorth: 5000, colour: '#1a2b3c' }, owner.account.id);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a business can do this.' });
    const signedOut = await t.app.inject({
      method: 'POST',
      url: `/api/generateyourgiftcard/${owner.account.id}`,
      payload: { moneyWorth: 5000, colour: '#1a2b3c' },
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
    expectValidation(
      await generate(owner, { moneyWorth: 5000, colour: '#1a2b3c' }, 'abc'),
      'businessId',
      'That is not a business id.',
    );
  });

  it('refuses a cookie-authenticated create from another site (CSRF)', async () => {
    const owner = await business();
    const res = await owner.request({
      method: 'POST',
      url: `/api/generateyourgiftcard/${owner.account.id}`,
      payload: { moneyWorth: 5000, colour: '#1a2b3c' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
  });
});

describe('GET /api/businessgiftcard/:businessId', () => {
  it('answers the business with all its cards (stopped ones too) in data.giftCard, newest first', async () => {
    const owner = await business();
    const cards = await generatedMany(owner, 3);
    expect((await stop(owner, cards[0]!._id)).statusCode).toBe(200);
    const res = await get(`/api/businessgiftcard/${owner.account.id}`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Gift cards found',
      data: {
        _id: owner.account.id,
        name: owner.input.name,
        Balance: 0,
        email: owner.input.email,
        phoneNumber: e164(owner.input.phoneNumber),
        giftCard: [...cards].reverse(),
        logo: '',
      },
    });
    expect(res.body).not.toMatch(/password|argon2/i);
  });

  it('answers another business and a user with 403, a signed-out request with 401', async () => {
    const owner = await business();
    await generated(owner);
    const url = `/api/businessgiftcard/${owner.account.id}`;
    const asOther = await get(url, await business());
    expect(asOther.statusCode).toBe(403);
    expect(asOther.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only act on your own business.' });
    expect((await get(url, await user())).statusCode).toBe(403);
    expect((await get(url)).statusCode).toBe(401);
  });
});

describe('GET /api/getallgiftcards', () => {
  it('answers an array of cards on sale, newest first, in the old shape', async () => {
    const owner = await business();
    const [stopped, older, newer] = await generatedMany(owner, 3);
    expect((await stop(owner, stopped!._id)).statusCode).toBe(200);

    const res = await get('/api/getallgiftcards');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; data: LegacyCard[] };
    expect(body.message).toBe('Gift cards found');
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(100);
    for (const card of body.data) {
      expect(Object.keys(card).sort()).toEqual([
        'BrandLogo',
        '_id',
        'colour',
        'moneyWorth',
        'name',
        'uniqueID',
      ]);
    }
    const ids = body.data.map((c) => c._id);
    expect(ids).not.toContain(stopped!._id);

    // Newest first: the creation times of the answered cards never go up.
    const { rows } = await t.database.pool.query<{ id: string; t: string }>(
      `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS t FROM gift_cards WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const time = new Map(rows.map((r) => [r.id, r.t]));
    const times = ids.map((id) => time.get(id)!);
    expect([...times].sort().reverse()).toEqual(times);

    // Other files add cards at the same time: ours are there, in order, unless 100 newer ones pushed them out.
    const mine = ids.filter((id) => id === older!._id || id === newer!._id);
    if (mine.length === 2) expect(mine).toEqual([newer!._id, older!._id]);
    else expect(ids).toHaveLength(100);
    if (mine.length > 0) {
      expect(body.data.find((c) => c._id === newer!._id)).toEqual(newer);
    }
  });
});

describe('GET /api/getonegiftcard/:id', () => {
  it('answers one card in the old shape, also one that stopped selling', async () => {
    const owner = await business();
    const card = await generated(owner, '750.25', '#ABCDEF');
    const res = await get(`/api/getonegiftcard/${card._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Gift card found',
      data: { ...card, moneyWorth: 750.25, colour: '#abcdef' },
    });
    await stop(owner, card._id);
    expect((await get(`/api/getonegiftcard/${card._id}`)).json()).toEqual({
      message: 'Gift card found',
      data: card,
    });
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    const unknown = await get(`/api/getonegiftcard/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That gift card was not found.' });
    expectValidation(await get('/api/getonegiftcard/123'), 'id', 'That is not a gift card id.');
  });
});

describe('GET /api/getsinglebusiness/:businessId', () => {
  it('shows others the public shape with only the cards on sale: no Balance, email or phone', async () => {
    const owner = await business();
    const [stopped, onSale] = await generatedMany(owner, 2);
    await stop(owner, stopped!._id);
    const expected = {
      message: 'Business found',
      data: { _id: owner.account.id, name: owner.input.name, logo: '', giftCard: [onSale] },
    };
    for (const who of [undefined, await business(), await user()]) {
      const res = await get(`/api/getsinglebusiness/${owner.account.id}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
      expect(res.body).not.toContain(owner.input.email);
      expect(res.body).not.toMatch(/Balance|phoneNumber/);
    }
  });

  it('shows the business itself its balance, contacts and every card', async () => {
    const owner = await business();
    const [stopped, onSale] = await generatedMany(owner, 2);
    await stop(owner, stopped!._id);
    const res = await get(`/api/getsinglebusiness/${owner.account.id}`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Business found',
      data: {
        _id: owner.account.id,
        name: owner.input.name,
        Balance: 0,
        email: owner.input.email,
        phoneNumber: e164(owner.input.phoneNumber),
        giftCard: [onSale, stopped],
        logo: '',
      },
    });
  });

  it('answers an unknown id and a user’s id with 404, a malformed id with 400', async () => {
    expect((await get(`/api/getsinglebusiness/${randomUUID()}`)).statusCode).toBe(404);
    const buyer = await user();
    const asUserId = await get(`/api/getsinglebusiness/${buyer.account.id}`, buyer);
    expect(asUserId.statusCode).toBe(404);
    expect(asUserId.json()).toEqual({ code: 'NOT_FOUND', message: 'That business was not found.' });
    expectValidation(await get('/api/getsinglebusiness/nope'), 'businessId', 'That is not a business id.');
  });
});

describe('GET /api/getsinglebusiness/:businessId/cards', () => {
  it('answers the business’s cards on sale, newest first, to anyone', async () => {
    const owner = await business();
    const cards = await generatedMany(owner, 3);
    await stop(owner, cards[1]!._id);
    for (const who of [undefined, owner]) {
      const res = await get(`/api/getsinglebusiness/${owner.account.id}/cards`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Gift cards found', data: [cards[2], cards[0]] });
    }
  });

  it('answers an empty list for a business without cards, 404 for an unknown one, 400 for a malformed id', async () => {
    const owner = await business();
    expect((await get(`/api/getsinglebusiness/${owner.account.id}/cards`)).json()).toEqual({
      message: 'Gift cards found',
      data: [],
    });
    const unknown = await get(`/api/getsinglebusiness/${randomUUID()}/cards`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'That business was not found.' });
    expect((await get('/api/getsinglebusiness/nope/cards')).statusCode).toBe(400);
  });
});

describe('PATCH /api/updatebusinesslogo/:businessId', () => {
  function updateLogo(
    who: Account,
    body: Buffer | string,
    businessId = who.account.id,
    filename = 'logo.png',
    type = 'image/png',
  ) {
    const form = logoForm(body, filename, type);
    return who.request({
      method: 'PATCH',
      url: `/api/updatebusinesslogo/${businessId}`,
      payload: form.payload,
      headers: form.headers,
    });
  }

  it('answers "image uploaded SUCCESSFULLY." with the business, its logo and its cards', async () => {
    const owner = await business();
    const card = await generated(owner);
    const res = await updateLogo(owner, await flatImage('png'));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { message: string; data: LegacyBusiness };
    expect(body.message).toBe('image uploaded SUCCESSFULLY.');
    expect(body.data.logo).toMatch(LOGO_URL);
    expect(body.data).toEqual({
      _id: owner.account.id,
      name: owner.input.name,
      Balance: 0,
      email: owner.input.email,
      phoneNumber: e164(owner.input.phoneNumber),
      giftCard: [{ ...card, BrandLogo: body.data.logo }],
      logo: body.data.logo,
    });
    const served = await get(body.data.logo);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    // The logo shows everywhere the old client looks.
    expect((await get(`/api/getonegiftcard/${card._id}`)).json()).toMatchObject({
      data: { BrandLogo: body.data.logo },
    });
    expect((await get(`/api/getsinglebusiness/${owner.account.id}`)).json()).toMatchObject({
      data: { logo: body.data.logo },
    });
    expect((await generated(owner)).BrandLogo).toBe(body.data.logo);
  });

  it('replaces the old logo and deletes its file', async () => {
    const owner = await business();
    const first = ((await updateLogo(owner, await flatImage('png'))).json() as { data: LegacyBusiness }).data
      .logo;
    const second = await updateLogo(
      owner,
      await flatImage('webp'),
      owner.account.id,
      'logo.webp',
      'image/webp',
    );
    expect(second.statusCode).toBe(200);
    const logo = (second.json() as { data: LegacyBusiness }).data.logo;
    expect(logo).toMatch(/\.webp$/);
    expect((await get(first)).statusCode).toBe(404);
    expect((await get(logo)).statusCode).toBe(200);
  });

  it('refuses a file that is not an image with 400 and keeps the old logo', async () => {
    const owner = await business();
    const first = ((await updateLogo(owner, await flatImage('png'))).json() as { data: LegacyBusiness }).data
      .logo;
    const res = await updateLogo(
      owner,
      '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      owner.account.id,
      'logo.svg',
      'image/svg+xml',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The logo must be a PNG, JPEG or WebP image.',
    });
    const now = (await get(`/api/businessgiftcard/${owner.account.id}`, owner)).json() as {
      data: LegacyBusiness;
    };
    expect(now.data.logo).toBe(first);
    expect((await get(first)).statusCode).toBe(200);
  });

  it('refuses another business and a user with 403, a signed-out request with 401', async () => {
    const owner = await business();
    const png = await flatImage('png');
    const asOther = await updateLogo(await business(), png, owner.account.id);
    expect(asOther.statusCode).toBe(403);
    expect(asOther.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only act on your own business.' });
    expect((await updateLogo(await user(), png, owner.account.id)).statusCode).toBe(403);
    const form = logoForm(png);
    const signedOut = await t.app.inject({
      method: 'PATCH',
      url: `/api/updatebusinesslogo/${owner.account.id}`,
      payload: form.payload,
      headers: form.headers,
    });
    expect(signedOut.statusCode).toBe(401);
    const now = (await get(`/api/getsinglebusiness/${owner.account.id}`)).json() as {
      data: { logo: string };
    };
    expect(now.data.logo).toBe('');
  });
});

describe('POST /api/loginbusiness', () => {
  it('answers the business’s cards in data.giftCard, newest first, stopped ones included', async () => {
    const owner = await business();
    const cards = await generatedMany(owner, 3);
    await stop(owner, cards[0]!._id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loginbusiness',
      payload: { email: owner.input.email, password: DEFAULT_PASSWORD },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { message: string; data: LegacyBusiness };
    expect(body.message).toBe('Login successful');
    expect(body.data._id).toBe(owner.account.id);
    expect(body.data.giftCard.map((c) => c._id)).toEqual(newestIds(cards));
    expect(body.data.giftCard[0]).toEqual(cards[2]);
    expect(body.data.giftCard.map((c) => c.moneyWorth)).toEqual([1002, 1001, 1000]);
  });
});

describe('OpenAPI document', () => {
  it('lists every legacy card route with its request and response schemas', async () => {
    const doc = (await get('/api/docs/json')).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[];
            parameters?: { name: string }[];
            requestBody?: { content: Record<string, { schema: unknown }> };
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          }
        >
      >;
    };
    const routes: [string, string, string | null, string, string[]][] = [
      ['/api/generateyourgiftcard/{businessId}', 'post', 'application/json', '201', ['businessId']],
      ['/api/businessgiftcard/{businessId}', 'get', null, '200', ['businessId']],
      ['/api/getallgiftcards', 'get', null, '200', []],
      ['/api/getonegiftcard/{id}', 'get', null, '200', ['id']],
      ['/api/getsinglebusiness/{businessId}', 'get', null, '200', ['businessId']],
      ['/api/getsinglebusiness/{businessId}/cards', 'get', null, '200', ['businessId']],
      ['/api/updatebusinesslogo/{businessId}', 'patch', 'multipart/form-data', '200', ['businessId']],
    ];
    for (const [path, method, bodyType, ok, params] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.tags).toContain('legacy');
      expect(
        (op!.parameters ?? []).map((p) => p.name),
        `${method} ${path} parameters`,
      ).toEqual(params);
      expect(
        op!.responses[ok]?.content?.['application/json']?.schema,
        `${method} ${path} ${ok}`,
      ).toBeDefined();
      if (bodyType)
        expect(op!.requestBody?.content[bodyType]?.schema, `${method} ${path} body`).toBeDefined();
      else expect(op!.requestBody).toBeUndefined();
      if (params.length > 0) expect(op!.responses['400'], `${method} ${path} 400`).toBeDefined();
    }
    const generate = doc.paths['/api/generateyourgiftcard/{businessId}']!.post!;
    expect(generate.requestBody!.content['application/json']!.schema).toMatchObject({
      properties: { moneyWorth: { type: ['string', 'number'] }, colour: { type: 'string' } },
      required: ['moneyWorth', 'colour'],
    });
  });
});
