import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessInput, DEFAULT_PASSWORD, userInput } from '../../../tests/fixtures/factories';
import { createTestApp, freshIp, type TestApp } from '../../../tests/fixtures/test-app';
import { sandboxSecret } from '../modules/orders/payments/payments';
import { signSandbox } from '../modules/orders/payments/sandbox.provider';
import { CONTROL_CHARACTERS_MESSAGE } from '../../shared/text';
import { registerErrorHandling } from './errors';

/**
 * Issue 12: a NUL (or another control character) anywhere in a string reached PostgreSQL, which refuses it in
 * text ("invalid byte sequence for encoding UTF8: 0x00"), and the answer was a 500. Each field is refused
 * by its schema with one message; PostgreSQL's own refusal is the backstop (errors.test.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NUL = '\u0000';

function expectRefused(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(400);
  const body = JSON.parse(res.body) as { code: string; message: string };
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.message).toBe(CONTROL_CHARACTERS_MESSAGE);
}

describe('control characters in input are refused with 400, never a 500', () => {
  it.each([
    ['/api/v1/businesses', () => businessInput({ name: `Biz${NUL}` })],
    ['/api/v1/users', () => userInput({ name: `Ada${NUL}` })],
    ['/api/registerbusiness', () => businessInput({ name: `Biz${NUL}` })],
    ['/api/registeruser', () => userInput({ name: `Ada\u0007` })],
  ])('registration name (%s)', async (url, input) => {
    expectRefused(await t.app.inject({ method: 'POST', url, payload: input() }));
  });

  it.each(['/api/v1/auth/login', '/api/v1/auth/tokens', '/api/loginbusiness', '/api/loginuser'])(
    'login email (%s)',
    async (url) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: { email: `ada${NUL}@example.test`, password: DEFAULT_PASSWORD },
        remoteAddress: freshIp(),
      });
      expectRefused(res);
    },
  );

  it('catalogue search q', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/gift-cards?q=Lagos%00Books' });
    expectRefused(res);
  });

  it.each([
    ['reference', { reference: `ord${NUL}` }],
    ['currency', { currency: `NG${NUL}` }],
    ['reason', { reason: `no${NUL}`, event: 'payment.failed' }],
  ])('sandbox webhook %s', async (_field, data) => {
    const { event = 'payment.succeeded', ...fields } = data as Record<string, string>;
    const raw = JSON.stringify({
      event,
      data: { reference: 'GM-NOPE', amount: '500000', currency: 'NGN', ...fields },
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
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
  });
});

describe('the error handler maps PostgreSQL data exceptions (the backstop) to 400, never 500', () => {
  /** A bare app with the real error handler and routes that send values PostgreSQL refuses, via Drizzle. */
  async function backstopApp() {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/nul', async () => t.database.db.execute(sql`SELECT ${'a' + NUL + 'b'}::text AS v`));
    app.get('/bad-int', async () => t.database.db.execute(sql`SELECT ${'12x'}::int AS v`));
    app.get('/range', async () => t.database.db.execute(sql`SELECT ${'99999999999'}::int AS v`));
    return app;
  }

  it.each([
    ['/nul', CONTROL_CHARACTERS_MESSAGE],
    ['/bad-int', 'A value in the request is not valid.'],
    ['/range', 'A number in the request is out of range.'],
  ])('%s', async (url, message) => {
    const app = await backstopApp();
    const res = await app.inject({ method: 'GET', url });
    await app.close();
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message });
  });

  it('keeps other database errors a 500 that says nothing inside', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/missing', async () => t.database.db.execute(sql`SELECT * FROM no_such_table_here`));
    const res = await app.inject({ method: 'GET', url: '/missing' });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
  });
});
