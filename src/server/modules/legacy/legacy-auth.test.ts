import { randomInt } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessInput, DEFAULT_PASSWORD, unique, userInput } from '../../../../tests/fixtures/factories';
import { cookieFrom, createTestApp, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * The old back end's account paths (seed §7): same payloads, `{ message, data }` answers, real status codes,
 * the same rules and the same session cookie as /api/v1. Logins come from made-up IPs so the failures
 * provoked here never spend the per-IP budget other test files sign in from.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function post(url: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: freshIp(),
  });
}

function e164(national: string): string {
  return `+234${national.slice(1)}`;
}

/** The old client stores its login and stays signed in across browser restarts: a "remember me" cookie. */
function expectRememberedCookie(res: LightMyRequestResponse) {
  const expires = /Expires=([^;]+)/i.exec(sessionCookieHeader(res))?.[1];
  expect(expires, sessionCookieHeader(res)).toBeDefined();
  const inMs = Date.parse(expires!) - Date.now();
  expect(inMs).toBeGreaterThan(30 * DAY_MS - 60_000);
  expect(inMs).toBeLessThan(30 * DAY_MS + 60_000);
}

function sessionCookieHeader(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const found = all.find((c) => c.startsWith('giftmart_session='));
  if (!found) throw new Error(`no giftmart_session in Set-Cookie: ${JSON.stringify(raw)}`);
  return found;
}

function expectNoSecrets(res: LightMyRequestResponse) {
  expect(res.body).not.toMatch(/argon2/i);
  expect(res.body).not.toMatch(/password/i);
}

async function registeredBusiness() {
  const input = businessInput();
  const res = await post('/api/registerbusiness', input);
  expect(res.statusCode, res.body).toBe(201);
  return { input, data: (res.json() as { data: { _id: string } }).data };
}

async function registeredUser() {
  const input = userInput();
  const res = await post('/api/registeruser', input);
  expect(res.statusCode, res.body).toBe(201);
  return { input, data: (res.json() as { data: { _id: string } }).data };
}

describe('POST /api/registerbusiness', () => {
  it('answers 201 with the old session shape of the business', async () => {
    const input = businessInput();
    const res = await post('/api/registerbusiness', input);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: 'Business registered successfully',
      data: {
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: input.name,
        Balance: 0,
        email: input.email,
        phoneNumber: e164(input.phoneNumber),
        giftCard: [],
        logo: '',
      },
    });
    expectNoSecrets(res);
  });

  it('creates an account the v1 API and the wallet know', async () => {
    const { input, data } = await registeredBusiness();
    const login = await post('/api/v1/auth/login', {
      email: input.email,
      password: DEFAULT_PASSWORD,
      role: 'business',
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toMatchObject({ account: { id: data._id, role: 'business' } });
    const wallet = await t.app.inject({
      method: 'GET',
      url: '/api/v1/wallet',
      headers: { cookie: cookieFrom(login) },
    });
    expect(wallet.json()).toMatchObject({ balance: { amount: 0, currency: 'NGN' } });
  });

  it('accepts the phone number as the old client sent it: a JSON number without the leading 0', async () => {
    const res = await post('/api/registerbusiness', { ...businessInput(), phoneNumber: 9051234567 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ data: { phoneNumber: '+2349051234567' } });
  });

  it.each([
    ['name', { name: '' }, 'please enter a name'],
    ['email', { email: '' }, 'please enter an email'],
    ['email', { email: 'nope' }, 'please enter a valid email address'],
    ['phoneNumber', { phoneNumber: '' }, 'please your phone number'],
    [
      'phoneNumber',
      { phoneNumber: '+14155552671' },
      'please enter a Nigerian phone number of at least 11 digits, e.g. 0803 123 4567',
    ],
    ['password', { password: '', confirmPassword: '' }, 'please enter a password'],
    ['password', { password: 'short', confirmPassword: 'short' }, 'password must be at least 8 characters'],
    ['confirmPassword', { confirmPassword: '' }, 'please confirm your password'],
    ['confirmPassword', { confirmPassword: 'something-else' }, 'passwords must match'],
  ])('refuses a bad %s with the same message as v1: %j', async (field, overrides, message) => {
    const res = await post('/api/registerbusiness', { ...businessInput(), ...overrides });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message,
      details: { fieldErrors: { [field]: [message] } },
    });
  });

  it('refuses a taken email (even a user’s) and a taken business name with 409', async () => {
    const { input: user } = await registeredUser();
    const email = await post('/api/registerbusiness', businessInput({ email: user.email.toUpperCase() }));
    expect(email.statusCode).toBe(409);
    expect(email.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      message: 'An account with this email already exists.',
    });

    const { input: biz } = await registeredBusiness();
    const name = await post('/api/registerbusiness', businessInput({ name: biz.name.toLowerCase() }));
    expect(name.statusCode).toBe(409);
    expect(name.json()).toMatchObject({ code: 'BUSINESS_NAME_TAKEN' });
  });
});

describe('POST /api/registeruser', () => {
  it('answers 201 with the old session shape of the user', async () => {
    const input = userInput({ username: `Legacy_${unique()}`.slice(0, 30) });
    const res = await post('/api/registeruser', input);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: 'User registered successfully',
      data: {
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: input.name,
        username: input.username.toLowerCase(),
        email: input.email,
        phoneNumber: e164(input.phoneNumber),
      },
    });
    expectNoSecrets(res);
  });

  it.each([
    ['username', { username: '' }, 'please enter a username'],
    ['name', { name: '   ' }, 'please enter a name'],
    ['confirmPassword', { confirmPassword: 'mismatch-123' }, 'passwords must match'],
  ])('refuses a bad %s: %j', async (field, overrides, message) => {
    const res = await post('/api/registeruser', { ...userInput(), ...overrides });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message,
      details: { fieldErrors: { [field]: [message] } },
    });
  });

  it('refuses a business’s email and a taken username with 409', async () => {
    const { input: biz } = await registeredBusiness();
    const email = await post('/api/registeruser', userInput({ email: biz.email }));
    expect(email.statusCode).toBe(409);
    expect(email.json()).toMatchObject({ code: 'EMAIL_TAKEN' });

    const { input: user } = await registeredUser();
    const username = await post('/api/registeruser', userInput({ username: user.username.toUpperCase() }));
    expect(username.statusCode).toBe(409);
    expect(username.json()).toMatchObject({ code: 'USERNAME_TAKEN' });
  });

  it('lets exactly one of two racing registrations with the same email in (no 500)', async () => {
    const email = `legacy-race-${unique()}@example.test`;
    const answers = await Promise.all([
      post('/api/registeruser', userInput({ email })),
      post('/api/registerbusiness', businessInput({ email })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('POST /api/loginbusiness', () => {
  it('answers 200 with the business session and sets a 30-day session cookie (the old client stays signed in)', async () => {
    const { input, data } = await registeredBusiness();
    const res = await post('/api/loginbusiness', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Login successful',
      data: {
        _id: data._id,
        name: input.name,
        Balance: 0,
        email: input.email,
        phoneNumber: e164(input.phoneNumber),
        giftCard: [],
        logo: '',
      },
    });
    expectNoSecrets(res);
    const header = sessionCookieHeader(res);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expectRememberedCookie(res);

    const session = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/session',
      headers: { cookie: cookieFrom(res) },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ account: { id: data._id, role: 'business' } });
  });

  it('gives a 30-day cookie with "remember"', async () => {
    const { input } = await registeredBusiness();
    const res = await post('/api/loginbusiness', {
      email: input.email,
      password: DEFAULT_PASSWORD,
      remember: true,
    });
    expect(res.statusCode).toBe(200);
    const expires = /Expires=([^;]+)/i.exec(sessionCookieHeader(res))?.[1];
    expect(expires).toBeDefined();
    const inMs = Date.parse(expires!) - Date.now();
    expect(inMs).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(inMs).toBeLessThan(30 * DAY_MS + 60_000);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const { input } = await registeredBusiness();
    const expected = { code: 'INVALID_CREDENTIALS', message: 'email or password incorrect' };
    const wrong = await post('/api/loginbusiness', { email: input.email, password: 'wrong-password' });
    const unknown = await post('/api/loginbusiness', {
      email: `ghost-${unique()}@example.test`,
      password: DEFAULT_PASSWORD,
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(expected);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a user account with 403 after the right password', async () => {
    const { input } = await registeredUser();
    const res = await post('/api/loginbusiness', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'This is a user account. Please log in as a user.',
    });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an empty form with the form messages', async () => {
    const res = await post('/api/loginbusiness', { email: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'please enter an email',
      details: { fieldErrors: { email: ['please enter an email'], password: ['please enter a password'] } },
    });
  });

  it('shares the failure counter with /api/v1/auth/login', async () => {
    const { input } = await registeredBusiness();
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      const url = i % 2 === 0 ? '/api/v1/auth/login' : '/api/loginbusiness';
      expect((await post(url, { email: input.email, password: 'wrong-password' })).statusCode).toBe(401);
    }
    const res = await post('/api/loginbusiness', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('checks at most the limit of passwords when 40 wrong ones arrive at once', async () => {
    const { input } = await registeredBusiness();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post('/api/loginbusiness', { email: input.email, password: `wrong-${i}-password` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
  });
});

describe('POST /api/loginuser', () => {
  it('answers 200 with the user session and sets a 30-day session cookie (the old client stays signed in)', async () => {
    const { input, data } = await registeredUser();
    const res = await post('/api/loginuser', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Login successful',
      data: {
        _id: data._id,
        name: input.name,
        username: input.username.toLowerCase(),
        email: input.email,
        phoneNumber: e164(input.phoneNumber),
      },
    });
    expectNoSecrets(res);
    expectRememberedCookie(res);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/session',
      headers: { cookie: cookieFrom(res) },
    });
    expect(session.json()).toMatchObject({ account: { id: data._id, role: 'user' } });
  });

  it('accepts the username in the email field', async () => {
    const { input, data } = await registeredUser();
    const res = await post('/api/loginuser', { email: input.username, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { _id: data._id } });
    expect(cookieFrom(res)).toMatch(/^giftmart_session=.{40,}$/);
  });

  it('answers a wrong password with 401 "email or password incorrect"', async () => {
    const { input } = await registeredUser();
    const res = await post('/api/loginuser', { email: input.email, password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'email or password incorrect' });
  });

  it('refuses a business account with 403 after the right password', async () => {
    const { input } = await registeredBusiness();
    const res = await post('/api/loginuser', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'This is a business account. Please log in as a business.',
    });
  });

  it('logs in an account made through v1', async () => {
    const input = userInput();
    expect((await post('/api/v1/users', input)).statusCode).toBe(201);
    const res = await post('/api/loginuser', {
      email: input.email.toUpperCase(),
      password: DEFAULT_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('legacy paths and the browser', () => {
  it('refuses a legacy login that carries a session cookie but comes from another site (CSRF)', async () => {
    const { input } = await registeredUser();
    const first = await post('/api/loginuser', { email: input.email, password: DEFAULT_PASSWORD });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loginuser',
      payload: { email: input.email, password: DEFAULT_PASSWORD },
      headers: { cookie: cookieFrom(first), origin: 'https://evil.example' },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
  });

  it('answers an unknown legacy path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/registeradmin', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'No such API route: POST /api/registeradmin' });
  });
});
