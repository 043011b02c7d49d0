import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redemption } from '../../../shared/cards/schemas';
import { CONTROL_CHARACTERS } from '../../../shared/text';
import { buyCard, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * Every route issue 10 added, attacked: NUL and control characters, 100 kB strings, wrong types, amounts
 * that are not whole positive safe integers, both or neither of amount and all, ids that are not UUIDs or
 * belong to another account, no session, the wrong role, malformed bodies. Never a 5xx; every 4xx is
 * `{ code, message }`; nothing of another account changes. The look-up limits are set high here so that
 * each bad input reaches the code that would store or look it up (a 429 would hide a hole).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    SANDBOX_WEBHOOK_DELAY_MS: '0',
    CODE_LOOKUPS_PER_MINUTE_PER_ACCOUNT: '100000',
    CODE_LOOKUPS_PER_MINUTE_PER_IP: '100000',
    BALANCE_CHECKS_PER_MINUTE_PER_IP: '100000',
  });
});
afterAll(() => t.close());

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');

const HUGE = 'A'.repeat(100 * 1024);
/** Strings that have broken servers: NUL, other C0 controls and DEL, bidi overrides, huge, SQL-ish. */
const NASTY_STRINGS = [
  '\u0000',
  'TILL\u00001',
  '\u0001\u0002\u001b[31m',
  'line\r\nInjected: header',
  '\u007f',
  '\u202eevil',
  '\ud800',
  HUGE,
  "' OR 1=1 --",
  '%00',
  '',
  '   ',
];
const WRONG_TYPES: unknown[] = [null, 0, 12.5, true, [], {}, ['a'], { $ne: null }];

function expectSafe(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = res.json() as { code?: unknown; message?: unknown };
    expect(typeof body.code, `${what}: ${res.body.slice(0, 300)}`).toBe('string');
    expect(typeof body.message, `${what}: ${res.body.slice(0, 300)}`).toBe('string');
    expect(body.message as string, what).not.toMatch(/postgres|sql|stack|TypeError|undefined/i);
  }
}

async function send(account: Account | null, options: InjectOptions, what: string) {
  const withIp = { remoteAddress: freshIp(), ...options };
  const res = account ? await account.request(withIp) : await t.app.inject(withIp);
  expectSafe(res, what);
  return res;
}

async function soldCard(amount = 10_000_000) {
  const seller = await business();
  const buyer = await user();
  const card = await buyCard(t, buyer, await createDesign(seller, amount));
  return { seller, buyer, card };
}

async function balanceOf(id: string): Promise<string> {
  const { rows } = await t.database.pool.query('SELECT balance FROM purchased_cards WHERE id = $1', [id]);
  return rows[0].balance as string;
}

describe('code, reference and reason strings', () => {
  it('POST /card-lookups and /balance-checks: any code string or type → 400 or the one 404', async () => {
    const { seller, card } = await soldCard();
    for (const code of [...NASTY_STRINGS, ...WRONG_TYPES, card.code + '\u0000', `\u0000${card.code}`]) {
      const what = `code ${JSON.stringify(code)?.slice(0, 40)}`;
      const looked = await send(
        seller,
        { method: 'POST', url: '/api/v1/card-lookups', payload: { code } },
        what,
      );
      expect([400, 404], what).toContain(looked.statusCode);
      const checked = await send(
        null,
        { method: 'POST', url: '/api/v1/balance-checks', payload: { code } },
        what,
      );
      expect([400, 404], what).toContain(checked.statusCode);
    }
    for (const payload of [{}, { code: card.code, extra: HUGE }, { codes: [card.code] }]) {
      await send(
        seller,
        { method: 'POST', url: '/api/v1/card-lookups', payload },
        JSON.stringify(payload).slice(0, 40),
      );
    }
  });

  it('POST /redemptions: a NUL, control character or 100 kB string in code or reference never gets a 5xx, and nothing is taken', async () => {
    const { seller, card } = await soldCard();
    for (const value of [...NASTY_STRINGS, ...WRONG_TYPES]) {
      const what = JSON.stringify(value)?.slice(0, 40);
      const byCode = await send(
        seller,
        { method: 'POST', url: '/api/v1/redemptions', payload: { code: value, amount: 100 } },
        `code ${what}`,
      );
      expect(byCode.statusCode).not.toBe(201);
      const byReference = await send(
        seller,
        {
          method: 'POST',
          url: '/api/v1/redemptions',
          payload: { code: card.code, amount: 100, reference: value },
        },
        `reference ${what}`,
      );
      // Blank references are no reference; everything else that is not printable text is refused.
      if (byReference.statusCode === 201) {
        expect(
          typeof value === 'string' && value.trim().length <= 100 && !CONTROL_CHARACTERS.test(value),
          what,
        ).toBe(true);
      }
    }
    const { rows } = await t.database.pool.query(
      "SELECT reference FROM card_activities WHERE purchased_card_id = $1 AND kind = 'redeem'",
      [card.id],
    );
    for (const row of rows) {
      if (row.reference !== null) expect(row.reference).not.toMatch(CONTROL_CHARACTERS);
    }
  });

  it('a reference with control characters is refused with words, and printable Unicode is kept as typed', async () => {
    const { seller, card } = await soldCard();
    const refused = await send(
      seller,
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        payload: { code: card.code, amount: 100, reference: 'TILL\u00001' },
      },
      'NUL reference',
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const kept = await send(
      seller,
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        payload: { code: card.code, amount: 100, reference: 'Café ₦ #12 — 🍲' },
      },
      'unicode reference',
    );
    expect(kept.statusCode, kept.body).toBe(201);
    expect((kept.json() as Redemption).reference).toBe('Café ₦ #12 — 🍲');
  });

  it('POST /sold-cards/:id/block: a NUL, control character or 100 kB reason never gets a 5xx', async () => {
    const { seller, card } = await soldCard();
    for (const reason of [...NASTY_STRINGS, ...WRONG_TYPES]) {
      const what = `reason ${JSON.stringify(reason)?.slice(0, 40)}`;
      const res = await send(
        seller,
        { method: 'POST', url: `/api/v1/sold-cards/${card.id}/block`, payload: { reason } },
        what,
      );
      if (res.statusCode === 200) {
        await send(seller, { method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` }, 'unblock');
      }
    }
    const nul = await send(
      seller,
      { method: 'POST', url: `/api/v1/sold-cards/${card.id}/block`, payload: { reason: 'lost\u0000' } },
      'NUL reason',
    );
    expect(nul.statusCode).toBe(400);
  });

  it('GET /sold-cards: q and cursor of any shape → 200 or 400', async () => {
    const seller = await business();
    for (const value of [
      ...NASTY_STRINGS.filter((s) => s.length < 1000),
      'x'.repeat(5000),
      '%FF%FE',
      'ß'.repeat(10),
    ]) {
      await send(
        seller,
        { method: 'GET', url: '/api/v1/sold-cards', query: { q: value } },
        `q ${JSON.stringify(value)}`,
      );
      await send(
        seller,
        { method: 'GET', url: '/api/v1/sold-cards', query: { cursor: value } },
        `cursor ${JSON.stringify(value)}`,
      );
    }
    for (const limit of ['0', '-1', '1.5', '101', 'abc', '1e3', '']) {
      await send(seller, { method: 'GET', url: '/api/v1/sold-cards', query: { limit } }, `limit ${limit}`);
    }
    const raw = await send(seller, { method: 'GET', url: '/api/v1/sold-cards?q=%00' }, 'raw %00');
    expect(raw.statusCode).toBeLessThan(500);
  });
});

describe('amounts', () => {
  it('refuses every amount that is not a whole positive safe number of kobo, and "amount" with "all" or neither', async () => {
    const { seller, card } = await soldCard(10_000_000);
    const bad: Record<string, unknown>[] = [
      { amount: '100' },
      { amount: -1 },
      { amount: 0 },
      { amount: -0 },
      { amount: 1.5 },
      { amount: 0.0001 },
      { amount: 'NaN' },
      { amount: 'Infinity' },
      { amount: null },
      { amount: Number.MAX_SAFE_INTEGER + 2 },
      { amount: 1e308 },
      { amount: [100] },
      { amount: { value: 100 } },
      { amount: true },
      { amount: 100, all: true },
      { all: false },
      { all: 'true' },
      { all: 1 },
      {},
    ];
    for (const extra of bad) {
      const what = JSON.stringify(extra);
      const res = await send(
        seller,
        { method: 'POST', url: '/api/v1/redemptions', payload: { code: card.code, ...extra } },
        what,
      );
      expect(res.statusCode, what).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // JSON that JavaScript reads as Infinity or -0, sent as raw text.
    for (const raw of ['1e400', '-1e400', '-0', '1E2']) {
      const res = await send(
        seller,
        {
          method: 'POST',
          url: '/api/v1/redemptions',
          headers: { 'content-type': 'application/json' },
          payload: `{"code":"${card.code}","amount":${raw}}`,
        },
        `raw ${raw}`,
      );
      expect(res.statusCode, raw).toBe(raw === '1E2' ? 201 : 400);
    }
    // A safe amount over the balance is refused with the balance, not a 5xx.
    const over = await send(
      seller,
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        payload: { code: card.code, amount: Number.MAX_SAFE_INTEGER },
      },
      'MAX_SAFE_INTEGER',
    );
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'CARD_BALANCE_TOO_LOW' });
    expect(await balanceOf(card.id)).toBe(String(10_000_000 - 100));
  });

  it('malformed bodies and content types → 4xx with { code, message }', async () => {
    const seller = await business();
    const cases: InjectOptions[] = [
      { method: 'POST', url: '/api/v1/redemptions' },
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      },
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        headers: { 'content-type': 'application/json' },
        payload: 'null',
      },
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        headers: { 'content-type': 'application/json' },
        payload: '[]',
      },
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        headers: { 'content-type': 'text/plain' },
        payload: 'code=1',
      },
      {
        method: 'POST',
        url: '/api/v1/card-lookups',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'code=1',
      },
      {
        method: 'POST',
        url: '/api/v1/balance-checks',
        headers: { 'content-type': 'application/json' },
        payload: '"x"',
      },
      {
        method: 'POST',
        url: `/api/v1/sold-cards/${randomUUID()}/block`,
        headers: { 'content-type': 'application/json' },
        payload: '[1]',
      },
      {
        method: 'POST',
        url: '/api/v1/redemptions',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ code: HUGE.repeat(11), amount: 1 }),
      },
    ];
    for (const options of cases) {
      const res = await send(seller, options, `${options.url} ${String(options.payload).slice(0, 30)}`);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('ids', () => {
  it('non-UUID ids → 400, unknown and other accounts’ ids → 404, and nothing of theirs changes', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const receipt = (
      await send(
        seller,
        { method: 'POST', url: '/api/v1/redemptions', payload: { code: card.code, amount: 1_000 } },
        'own redemption',
      )
    ).json() as Redemption;
    const stranger = await business();
    const otherUser = await user();

    const badIds = [
      'not-a-uuid',
      '1',
      `${card.id}x`,
      card.id.slice(0, -1),
      '%00',
      'x'.repeat(90),
      "'; DROP TABLE card_activities; --",
    ];
    const routes = (id: string): [Account, InjectOptions][] => [
      [stranger, { method: 'GET', url: `/api/v1/sold-cards/${id}` }],
      [stranger, { method: 'POST', url: `/api/v1/sold-cards/${id}/block`, payload: { reason: 'x' } }],
      [stranger, { method: 'POST', url: `/api/v1/sold-cards/${id}/unblock` }],
      [stranger, { method: 'POST', url: `/api/v1/sold-cards/${id}/refund` }],
      [stranger, { method: 'GET', url: `/api/v1/redemptions/${id}` }],
      [stranger, { method: 'POST', url: `/api/v1/redemptions/${id}/reversal` }],
      [otherUser, { method: 'GET', url: `/api/v1/purchased-cards/${id}` }],
      [otherUser, { method: 'POST', url: `/api/v1/purchased-cards/${id}/freeze` }],
      [otherUser, { method: 'POST', url: `/api/v1/purchased-cards/${id}/unfreeze` }],
      [otherUser, { method: 'POST', url: `/api/v1/purchased-cards/${id}/code` }],
    ];
    for (const id of badIds) {
      for (const [account, options] of routes(encodeURIComponent(id))) {
        const res = await send(account, options, `${options.method} ${options.url}`);
        expect([400, 404], `${options.method} ${options.url}`).toContain(res.statusCode);
      }
    }
    // Real ids of someone else's card and redemption, and ids that exist nowhere.
    for (const id of [card.id, receipt.id, randomUUID(), '00000000-0000-0000-0000-000000000000']) {
      for (const [account, options] of routes(id)) {
        const res = await send(account, options, `${options.method} ${options.url}`);
        expect(res.statusCode, `${options.method} ${options.url}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    // A business's own card id is not a redemption id (and the reverse) for it either.
    const crossed = await send(
      seller,
      { method: 'GET', url: `/api/v1/redemptions/${card.id}` },
      'card id as redemption',
    );
    expect(crossed.statusCode).toBe(404);
    const crossed2 = await send(
      seller,
      { method: 'GET', url: `/api/v1/sold-cards/${receipt.id}` },
      'redemption id as card',
    );
    expect(crossed2.statusCode).toBe(404);

    expect(await balanceOf(card.id)).toBe('999000');
    const { rows } = await t.database.pool.query(
      'SELECT kind FROM card_activities WHERE purchased_card_id = $1 ORDER BY created_at',
      [card.id],
    );
    // The one redemption that was allowed, and nothing else (a card is its own issue, ADR 039).
    expect(rows.map((r) => r.kind)).toEqual(['redeem']);
    expect(
      (await buyer.request({ method: 'GET', url: `/api/v1/purchased-cards/${card.id}` })).json().status,
    ).toBe('active');
  });

  it('every new route without a session → 401, with the wrong role → 403, each as { code, message }', async () => {
    const { seller, buyer, card } = await soldCard();
    const businessRoutes: InjectOptions[] = [
      { method: 'POST', url: '/api/v1/card-lookups', payload: { code: card.code } },
      { method: 'POST', url: '/api/v1/redemptions', payload: { code: card.code, amount: 1 } },
      { method: 'GET', url: `/api/v1/redemptions/${randomUUID()}` },
      { method: 'POST', url: `/api/v1/redemptions/${randomUUID()}/reversal` },
      { method: 'GET', url: '/api/v1/sold-cards' },
      { method: 'GET', url: `/api/v1/sold-cards/${card.id}` },
      { method: 'POST', url: `/api/v1/sold-cards/${card.id}/block`, payload: {} },
      { method: 'POST', url: `/api/v1/sold-cards/${card.id}/unblock` },
      { method: 'POST', url: `/api/v1/sold-cards/${card.id}/refund` },
    ];
    const userRoutes: InjectOptions[] = [
      { method: 'GET', url: `/api/v1/purchased-cards/${card.id}` },
      { method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` },
      { method: 'POST', url: `/api/v1/purchased-cards/${card.id}/unfreeze` },
    ];
    for (const options of [...businessRoutes, ...userRoutes]) {
      const res = await send(null, options, `anonymous ${options.method} ${options.url}`);
      expect(res.statusCode, `${options.method} ${options.url}`).toBe(401);
      // A forged or expired session cookie is no session either.
      const forged = await send(
        null,
        {
          ...options,
          headers: { cookie: 'giftmart_session=forged', origin: 'http://localhost:80', host: 'localhost:80' },
        },
        `forged ${options.url}`,
      );
      expect(forged.statusCode).toBe(401);
    }
    for (const options of businessRoutes) {
      const res = await send(buyer, options, `user ${options.method} ${options.url}`);
      expect(res.statusCode, `${options.method} ${options.url}`).toBe(403);
    }
    for (const options of userRoutes) {
      const res = await send(seller, options, `business ${options.method} ${options.url}`);
      expect(res.statusCode, `${options.method} ${options.url}`).toBe(403);
    }
    expect(await balanceOf(card.id)).toBe('10000000');
  });

  it('Idempotency-Key headers of any shape → never a 5xx', async () => {
    const { seller, card } = await soldCard();
    const receipt = (
      await send(
        seller,
        { method: 'POST', url: '/api/v1/redemptions', payload: { code: card.code, amount: 1 } },
        'own',
      )
    ).json() as Redemption;
    for (const key of ['x'.repeat(201), 'x'.repeat(200), ' ', 'ключ', '\u0001\u0002', '\t', 'a\u007fb']) {
      for (const options of [
        { method: 'POST', url: '/api/v1/redemptions', payload: { code: card.code, amount: 1 } },
        { method: 'POST', url: `/api/v1/redemptions/${receipt.id}/reversal` },
        { method: 'POST', url: `/api/v1/sold-cards/${randomUUID()}/refund` },
      ] as InjectOptions[]) {
        let res: LightMyRequestResponse;
        try {
          res = await seller.request({
            ...options,
            remoteAddress: freshIp(),
            headers: { 'idempotency-key': key },
          });
        } catch {
          continue; // A header value HTTP itself cannot carry never reaches the server.
        }
        expectSafe(res, `key ${JSON.stringify(key).slice(0, 30)} ${options.url}`);
      }
    }
  });
});
