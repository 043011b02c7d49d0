import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeNuban } from '../src/shared/wallet/banks';
import { bankAccounts } from '../src/server/db/schema/wallet';
import { buyCard, createDesign, type Account } from './fixtures/cards';
import { sentGift, usernameOf } from './fixtures/gifts';
import {
  errorShapeProblem,
  fillPath,
  openApiDocument,
  operations,
  sample,
  type Operation,
} from './fixtures/openapi';
import { createTestApp, freshIp, registerAndLogin, sameOrigin, type TestApp } from './fixtures/test-app';
import { DEFAULT_PASSWORD, unique } from './fixtures/factories';
import { flatImage, logoForm } from './fixtures/uploads';
import { fundedBusiness, TEST_PIN } from './fixtures/wallet';

/**
 * The authorization matrix (issue 12), generated from the OpenAPI document: every route with an id in its
 * path is sent by its owner, by another account of the same role, by an account of the other role and with
 * no session. Only the owner gets through; the others get 401 (no session) or 403/404, in the API's error
 * shape and without the owner's data. A route with no entry in ROUTES below fails, naming itself: a new
 * route is not done until it says who may use it.
 */

type Role = 'business' | 'user';

interface World {
  t: TestApp;
  /** Two businesses with money, a PIN (TEST_PIN) and a default bank account. */
  seller: Account & { id: string };
  otherBusiness: Account & { id: string };
  /** The buyer and gift sender, the gift recipient, and a user who has nothing to do with either. */
  buyer: Account;
  recipient: Account;
  stranger: Account;
  png: Buffer;
}

interface Prepared {
  /** Values for the path's parameters. */
  params: Record<string, string>;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Who owns it, when not the entry's default (the seller for business routes, the buyer for user routes). */
  owner?: Account;
  /** What only the owner may see (a card's code…), besides the owner's e-mail address and name. */
  secrets?: string[];
  /** Statuses the owner may get; 2xx by default. */
  ownerStatus?: number[];
}

type Entry =
  | { public: string }
  | {
      role: Role;
      prepare(w: World): Promise<Prepared>;
      owner?: 'recipient';
      /** Statuses allowed without a session when not 401, with the reason in a comment. */
      anonymous?: number[];
    };

const json = (payload: unknown) => ({ payload: payload as InjectOptions['payload'] });

async function freshCard(w: World) {
  return buyCard(w.t, w.buyer, await createDesign(w.seller, 50_000));
}

async function bankAccount(w: World): Promise<string> {
  const [bank] = await w.t.database.db
    .insert(bankAccounts)
    .values({
      businessId: w.seller.id,
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumber: makeNuban('058', String(100000000 + Math.floor(Math.random() * 899999999))),
      accountName: 'TEST HOLDER',
      isDefault: false,
    })
    .returning();
  return bank!.id;
}

async function pendingGift(w: World) {
  const card = await freshCard(w);
  const gift = await sentGift(w.buyer, card.id, { recipient: usernameOf(w.recipient) });
  return { card, gift };
}

async function redemption(w: World): Promise<string> {
  const card = await freshCard(w);
  const res = await w.seller.request({
    method: 'POST',
    url: '/api/v1/redemptions',
    payload: { code: card.code, amount: 1000 },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

async function logoUpload(w: World): Promise<Pick<Prepared, 'payload' | 'headers'>> {
  const form = logoForm(w.png);
  return { payload: form.payload, headers: form.headers };
}

/** A second sign-in of the buyer (another device): the id of its session, from the devices list. */
async function secondSession(w: World): Promise<string> {
  const list = async () => {
    const res = await w.buyer.request({ method: 'GET', url: '/api/v1/auth/sessions' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: { id: string }[] }).items.map((d) => d.id);
  };
  const before = new Set(await list());
  const login = await w.t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: w.buyer.input.email, password: DEFAULT_PASSWORD, role: 'user' },
    remoteAddress: freshIp(),
  });
  expect(login.statusCode, login.body).toBe(200);
  const added = (await list()).filter((id) => !before.has(id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

/** Every route with a path parameter: who owns what it names, and a valid request — or why it is public. */
const ROUTES: Record<string, Entry> = {
  'DELETE /api/v1/auth/sessions/{id}': {
    role: 'user',
    prepare: async (w) => ({ params: { id: await secondSession(w) } }),
  },
  'PATCH /api/v1/bank-accounts/{id}/default': {
    role: 'business',
    prepare: async (w) => ({ params: { id: await bankAccount(w) }, ...json({ pin: TEST_PIN }) }),
  },
  'DELETE /api/v1/bank-accounts/{id}': {
    role: 'business',
    prepare: async (w) => ({ params: { id: await bankAccount(w) } }),
  },
  'GET /api/v1/gift-cards/{id}': { public: 'the catalogue’s gift-card page: designs on sale are public' },
  'PATCH /api/v1/gift-cards/{id}': {
    role: 'business',
    prepare: async (w) => ({ params: { id: (await createDesign(w.seller)).id }, ...json({ onSale: false }) }),
  },
  'GET /api/v1/businesses/{businessId}': { public: 'a business’s public profile in the catalogue' },
  'GET /api/v1/businesses/{businessId}/gift-cards': {
    role: 'business',
    prepare: async (w) => {
      await createDesign(w.seller);
      return { params: { businessId: w.seller.id } };
    },
  },
  'PUT /api/v1/businesses/{businessId}/logo': {
    role: 'business',
    prepare: async (w) => ({ params: { businessId: w.seller.id }, ...(await logoUpload(w)) }),
  },
  'GET /api/v1/orders/{id}': {
    role: 'user',
    prepare: async (w) => {
      const design = await createDesign(w.seller);
      const res = await w.buyer.request({
        method: 'POST',
        url: '/api/v1/orders',
        payload: { giftCardId: design.id },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { params: { id: (res.json() as { id: string }).id } };
    },
  },
  'GET /api/v1/orders/{id}/receipt': {
    role: 'user',
    prepare: async (w) => {
      const card = await freshCard(w);
      return { params: { id: card.order.id }, secrets: [card.order.reference] };
    },
  },
  'POST /api/v1/sold-cards/{id}/refund': {
    role: 'business',
    prepare: async (w) => ({
      params: { id: (await freshCard(w)).id },
      headers: { 'idempotency-key': unique() },
    }),
  },
  'GET /api/v1/purchased-cards/{id}': {
    role: 'user',
    prepare: async (w) => {
      const card = await freshCard(w);
      return { params: { id: card.id }, secrets: [card.code, card.code.replace(/-/g, '')] };
    },
  },
  'POST /api/v1/purchased-cards/{id}/code': {
    role: 'user',
    prepare: async (w) => {
      const card = await freshCard(w);
      return { params: { id: card.id }, secrets: [card.code, card.code.replace(/-/g, '')] };
    },
  },
  'POST /api/v1/purchased-cards/{id}/freeze': {
    role: 'user',
    prepare: async (w) => ({ params: { id: (await freshCard(w)).id } }),
  },
  'POST /api/v1/purchased-cards/{id}/unfreeze': {
    role: 'user',
    prepare: async (w) => {
      const card = await freshCard(w);
      const frozen = await w.buyer.request({
        method: 'POST',
        url: `/api/v1/purchased-cards/${card.id}/freeze`,
      });
      expect(frozen.statusCode, frozen.body).toBe(200);
      return { params: { id: card.id } };
    },
  },
  'GET /api/v1/redemptions/{id}': {
    role: 'business',
    prepare: async (w) => ({ params: { id: await redemption(w) } }),
  },
  'POST /api/v1/redemptions/{id}/reversal': {
    role: 'business',
    prepare: async (w) => ({ params: { id: await redemption(w) }, headers: { 'idempotency-key': unique() } }),
  },
  'GET /api/v1/sold-cards/{id}': {
    role: 'business',
    prepare: async (w) => {
      const card = await freshCard(w);
      return { params: { id: card.id }, secrets: [card.code, card.code.replace(/-/g, '')] };
    },
  },
  'POST /api/v1/sold-cards/{id}/block': {
    role: 'business',
    prepare: async (w) => ({ params: { id: (await freshCard(w)).id }, ...json({ reason: 'reported lost' }) }),
  },
  'POST /api/v1/sold-cards/{id}/unblock': {
    role: 'business',
    prepare: async (w) => {
      const card = await freshCard(w);
      const blocked = await w.seller.request({
        method: 'POST',
        url: `/api/v1/sold-cards/${card.id}/block`,
        payload: {},
      });
      expect(blocked.statusCode, blocked.body).toBe(200);
      return { params: { id: card.id } };
    },
  },
  'POST /api/v1/purchased-cards/{id}/gifts': {
    role: 'user',
    prepare: async (w) => ({
      params: { id: (await freshCard(w)).id },
      ...json({ recipient: usernameOf(w.recipient) }),
    }),
  },
  'GET /api/v1/gifts/{id}': {
    role: 'user',
    prepare: async (w) => ({ params: { id: (await pendingGift(w)).gift.id } }),
  },
  'PATCH /api/v1/gifts/{id}': {
    role: 'user',
    prepare: async (w) => ({
      params: { id: (await pendingGift(w)).gift.id },
      ...json({ recipient: `someone-${unique()}@example.test` }),
    }),
  },
  'POST /api/v1/gifts/{id}/preview': {
    public: 'the gift link’s landing page: it authenticates by the mailed token, not a session',
  },
  'POST /api/v1/gifts/{id}/accept': {
    role: 'user',
    owner: 'recipient',
    prepare: async (w) => ({ params: { id: (await pendingGift(w)).gift.id }, ...json({}) }),
  },
  'POST /api/v1/gifts/{id}/decline': {
    role: 'user',
    owner: 'recipient',
    // Declining works with the mailed link alone (no login): without a session and without the token the
    // gift is as unknown as a wrong id.
    anonymous: [401, 404],
    prepare: async (w) => ({ params: { id: (await pendingGift(w)).gift.id }, ...json({}) }),
  },
  'POST /api/v1/gifts/{id}/cancel': {
    role: 'user',
    prepare: async (w) => ({ params: { id: (await pendingGift(w)).gift.id } }),
  },
  'GET /api/v1/withdrawals/{id}': {
    role: 'business',
    prepare: async (w) => {
      const res = await w.seller.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        headers: { 'idempotency-key': unique() },
        payload: { amount: 100_000, pin: TEST_PIN },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { params: { id: (res.json() as { id: string }).id } };
    },
  },
  'POST /api/generateyourgiftcard/{businessId}': {
    role: 'business',
    prepare: async (w) => ({
      params: { businessId: w.seller.id },
      ...json({ moneyWorth: 5000, colour: '#123456' }),
    }),
  },
  'GET /api/businessgiftcard/{businessId}': {
    role: 'business',
    prepare: async (w) => ({ params: { businessId: w.seller.id } }),
  },
  'GET /api/getonegiftcard/{id}': { public: 'the old client’s gift-card page: designs on sale are public' },
  'GET /api/getsinglebusiness/{businessId}': { public: 'the old client’s public business profile' },
  'GET /api/getsinglebusiness/{businessId}/cards': {
    public: 'the old client’s catalogue of a business’s cards on sale',
  },
  'PATCH /api/updatebusinesslogo/{businessId}': {
    role: 'business',
    prepare: async (w) => ({ params: { businessId: w.seller.id }, ...(await logoUpload(w)) }),
  },
  'POST /api/buyagiftcard/{userID}/{businessID}/{giftcardID}': {
    role: 'user',
    prepare: async (w) => ({
      params: {
        userID: w.buyer.account.id,
        businessID: w.seller.id,
        giftcardID: (await createDesign(w.seller)).id,
      },
      headers: { 'idempotency-key': unique() },
    }),
  },
  'POST /api/withdraw-money/{businessId}': {
    role: 'business',
    prepare: async (w) => ({
      params: { businessId: w.seller.id },
      headers: { 'idempotency-key': unique() },
      ...json({ amount: '1000', pin: TEST_PIN }),
    }),
  },
  'GET /uploads/{key}': { public: 'uploaded logos are shown in the public catalogue' },
  'GET /checkout/{paymentId}': {
    public:
      'the sandbox checkout page: the buyer arrives from the payment redirect; the unguessable id is the key',
  },
  'POST /checkout/{paymentId}': {
    public: 'the sandbox checkout form: the unguessable payment id is the key, as at a real provider',
  },
};

/**
 * Routes without a path parameter that anyone may call (sign-up, sign-in, the catalogue, webhooks that
 * authenticate by signature…). Every other one must answer 401 `{ code, message }` without a session.
 */
const OPEN_WITHOUT_SESSION: Record<string, string> = {
  'GET /api/health': 'health check',
  'GET /api/v1/config': 'public settings the web app reads before sign-in',
  'POST /api/v1/businesses': 'sign-up',
  'POST /api/v1/users': 'sign-up',
  'POST /api/v1/auth/login': 'sign-in',
  'POST /api/v1/auth/tokens': 'sign-in for API clients',
  'GET /api/v1/banks': 'the list of banks',
  'GET /api/v1/gift-cards': 'the public catalogue',
  'POST /api/v1/balance-checks': 'anyone holding a code may check its balance (limited per IP)',
  'POST /api/v1/payments/sandbox/webhook': 'authenticates by the provider’s signature',
  'GET /api/dev/mailbox': 'the development mailbox (not registered in production)',
  'POST /api/registerbusiness': 'legacy sign-up',
  'POST /api/registeruser': 'legacy sign-up',
  'POST /api/loginbusiness': 'legacy sign-in',
  'POST /api/loginuser': 'legacy sign-in',
  'GET /api/getallgiftcards': 'the old client’s public catalogue',
  'POST /api/v1/auth/password-reset':
    'forgot password: the same answer whether or not the address has an account',
  'POST /api/v1/auth/password-reset/confirm': 'the mailed reset link authenticates by its token',
  'POST /api/v1/account/email-change/confirm':
    'the link mailed to the new address authenticates by its token',
};

/** Valid bodies for routes without a parameter where the schema alone does not give one (the 401 test). */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v1/wallet/pin': { pin: TEST_PIN, confirmPin: TEST_PIN },
  'PUT /api/v1/wallet/pin': { newPin: '1357', confirmPin: '1357', currentPin: TEST_PIN },
  'POST /api/v1/redemptions': { code: 'ABCD-EFGH-JKLM-NPQR-S', amount: 100 },
  'PATCH /api/v1/account': { name: 'A new name' },
  'POST /api/v1/auth/password': { currentPassword: DEFAULT_PASSWORD, newPassword: 'another-horse-7' },
};

let w: World;
let ops: Operation[];

beforeAll(async () => {
  const t = await createTestApp();
  ops = operations(openApiDocument(t.app));
  const [seller, otherBusiness, buyer, recipient, stranger, png] = await Promise.all([
    fundedBusiness(t, 100_000_000n),
    fundedBusiness(t, 100_000_000n),
    registerAndLogin(t.app, 'user'),
    registerAndLogin(t.app, 'user'),
    registerAndLogin(t.app, 'user'),
    flatImage('png'),
  ]);
  w = { t, seller, otherBusiness, buyer, recipient, stranger, png };
});

afterAll(async () => {
  await w?.t.close();
});

function assertRefused(res: LightMyRequestResponse, who: string, allowed: number[], secrets: string[]): void {
  const context = `${who}: ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(allowed, context).toContain(res.statusCode);
  expect(
    errorShapeProblem(res.statusCode, res.headers['content-type'] as string, res.body),
    context,
  ).toBeNull();
  for (const secret of secrets) expect(res.body, `${who} saw the owner’s data`).not.toContain(secret);
}

describe('authorization matrix', () => {
  test('every route with a path parameter has an entry', () => {
    const missing = ops
      .filter((op) => op.pathParams.length > 0 && !(op.key in ROUTES))
      .map((op) => `add an entry for ${op.key}`);
    expect(missing, missing.join('\n')).toEqual([]);
    const stale = Object.keys(ROUTES).filter((key) => !ops.some((op) => op.key === key));
    expect(stale, `entries for routes that no longer exist: ${stale.join(', ')}`).toEqual([]);
  });

  test('every route without a path parameter is listed as open or answers 401 without a session', async () => {
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.pathParams.length === 0 && !(o.key in OPEN_WITHOUT_SESSION))) {
      const query = Object.fromEntries(
        op.query.filter((q) => q.required).map((q) => [q.name, String(sample(q.schema))]),
      );
      const res = await w.t.app.inject({
        method: op.method as InjectOptions['method'],
        url: op.path,
        query,
        headers: { ...sameOrigin },
        ...(op.body && op.contentType === 'application/json'
          ? { payload: (VALID_BODIES[op.key] ?? sample(op.body)) as object }
          : {}),
      });
      const shape = errorShapeProblem(res.statusCode, res.headers['content-type'] as string, res.body);
      if (res.statusCode !== 401 || shape) {
        problems.push(
          `${op.key}: ${res.statusCode} ${res.body.slice(0, 200)} (add it to OPEN_WITHOUT_SESSION if it is public)`,
        );
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  const entries = Object.entries(ROUTES).filter(
    (e): e is [string, Exclude<Entry, { public: string }>] => !('public' in e[1]),
  );

  test.each(entries)('%s: only the owner gets through', async (key, entry) => {
    const op = ops.find((o) => o.key === key);
    if (!op) return; // reported by the first test
    const prepared = await entry.prepare(w);
    const owner =
      prepared.owner ??
      (entry.owner === 'recipient' ? w.recipient : entry.role === 'business' ? w.seller : w.buyer);
    const sameRole = entry.role === 'business' ? w.otherBusiness : w.stranger;
    const otherRole = entry.role === 'business' ? w.stranger : w.otherBusiness;
    const request: InjectOptions = {
      method: op.method as InjectOptions['method'],
      url: fillPath(op.path, prepared.params),
      query: prepared.query,
      payload: prepared.payload,
      headers: prepared.headers,
    };
    const secrets = [owner.input.email, owner.input.name, ...(prepared.secrets ?? [])];

    const anonymous = await w.t.app.inject({ ...request, headers: { ...sameOrigin, ...prepared.headers } });
    assertRefused(anonymous, 'no session', entry.anonymous ?? [401], secrets);
    assertRefused(
      await otherRole.request(request),
      `the other role (${otherRole.input.email})`,
      [403, 404],
      secrets,
    );
    assertRefused(await sameRole.request(request), `another ${entry.role}`, [403, 404], secrets);

    const res = await owner.request(request);
    const allowed = prepared.ownerStatus;
    if (allowed) expect(allowed, res.body).toContain(res.statusCode);
    else expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
    if (!allowed) expect(res.statusCode, res.body).toBeLessThan(300);
  });
});
