import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buyCard, createDesign, type Account } from './fixtures/cards';
import { allCases, answerProblem, describeCase, pick, type FuzzCase, type KnownIds } from './fixtures/fuzz';
import { openApiDocument, operations } from './fixtures/openapi';
import { createTestApp, registerAndLogin, sameOrigin, type TestApp } from './fixtures/test-app';

/**
 * The fuzz suite's quick part (issue 12): a seeded pick of the cases scripts/fuzz.ts sends to a real server,
 * through app.inject(). No case may get a 5xx, and every 4xx is `{ code, message }`. `FUZZ_SEED` and
 * `FUZZ_CASES` choose another pick; a failure prints the case number, which the same seed reproduces.
 */
const sleep = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));

const SEED = Number(process.env.FUZZ_SEED ?? 12);
const COUNT = Number(process.env.FUZZ_CASES ?? 400);
const SHOW = process.env.FUZZ_SHOW === '1';

let t: TestApp;
let seller: Account;
let buyer: Account;
let cases: FuzzCase[];
let again: () => FuzzCase[];

beforeAll(async () => {
  t = await createTestApp();
  [seller, buyer] = await Promise.all([registerAndLogin(t.app, 'business'), registerAndLogin(t.app, 'user')]);
  const design = await createDesign(seller);
  const card = await buyCard(t, buyer, design);
  const ids: KnownIds = {
    businessId: seller.account.id,
    businessID: seller.account.id,
    userID: buyer.account.id,
    giftcardID: design.id,
    code: card.code,
    '/api/v1/gift-cards/{id} id': design.id,
    '/api/getonegiftcard/{id} id': design.id,
    '/api/v1/purchased-cards/{id} id': card.id,
    '/api/v1/purchased-cards/{id}/code id': card.id,
    '/api/v1/purchased-cards/{id}/gifts id': card.id,
    '/api/v1/sold-cards/{id} id': card.id,
    '/api/v1/sold-cards/{id}/block id': card.id,
    '/api/v1/orders/{id} id': card.order.id,
    '/api/v1/orders/{id}/receipt id': card.order.id,
  };
  const ops = operations(openApiDocument(t.app));
  again = () => pick(allCases(ops, { seed: SEED, ids }), COUNT, SEED);
  cases = again();
});

afterAll(async () => {
  await t?.close();
});

describe('fuzz (OpenAPI-driven, through app.inject)', () => {
  test(`${COUNT} seeded cases: no 5xx, every 4xx is { code, message }`, { timeout: 120_000 }, async () => {
    const cookies = { none: undefined, business: seller.cookie, user: buyer.cookie };
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // A few at a time: the app's pool is small and the machine is shared.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (c) => {
          const cookie = cookies[c.session];
          const res = await Promise.race([
            t.app.inject({
              method: c.method as InjectOptions['method'],
              url: c.url,
              headers: { ...sameOrigin, ...(cookie ? { cookie } : {}), ...c.headers },
              ...(c.body !== undefined ? { payload: c.body } : {}),
            }),
            sleep(15_000),
          ]);
          if (!res) {
            failures.push(`${describeCase(c)}\n  → no answer within 15 s`);
            return;
          }
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const problem = answerProblem(c, res.statusCode, res.headers['content-type'] as string, res.body);
          if (problem) failures.push(`${describeCase(c)}\n  → ${problem}`);
        }),
      );
    }
    if (SHOW) console.log(`${cases.length} cases`, JSON.stringify([...statuses]));
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    expect(failures, `seed ${SEED}; ${summary.join(', ')}\n${failures.join('\n')}`).toEqual([]);
    // The pick reaches past validation: some cases must succeed and some must be refused for a session.
    expect(summary.join(', ')).toMatch(/\b2\d\d: /);
    expect(statuses.get(400)).toBeGreaterThan(0);
  });

  test('the check catches what it is for: a 5xx, Fastify’s own error shape, an empty code, a text answer', () => {
    const c = { url: '/api/v1/x' } as FuzzCase;
    const type = 'application/json; charset=utf-8';
    expect(answerProblem(c, 500, type, '{"code":"INTERNAL_ERROR","message":"Oops"}')).toMatch(/^500/);
    expect(
      answerProblem(c, 400, type, '{"statusCode":400,"code":"FST_ERR","error":"Bad Request","message":"x"}'),
    ).toMatch(/statusCode, error/);
    expect(answerProblem(c, 404, type, '{"code":"","message":"x"}')).toMatch(/without a code/);
    expect(answerProblem(c, 404, 'text/plain', 'Not Found')).toMatch(/text\/plain/);
    expect(answerProblem(c, 400, type, '{"code":"VALIDATION_FAILED","message":"Say what."}')).toBeNull();
  });

  test('the same seed gives the same cases, and they cover every route', () => {
    expect(again().map(describeCase)).toEqual(cases.map(describeCase));
    expect(new Set(cases.map((c) => c.op)).size).toBeGreaterThan(40);
  });
});
