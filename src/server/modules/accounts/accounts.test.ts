import { randomInt } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessInput, DEFAULT_PASSWORD, unique, userInput } from '../../../../tests/fixtures/factories';
import { cookieFrom, createTestApp, sameOrigin, type TestApp } from '../../../../tests/fixtures/test-app';

/**
 * The accounts/auth API (v1). Every login here comes from its own made-up IP address, so the failures these
 * tests provoke never spend the per-IP budget of 127.0.0.1 that other test files sign in from.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;

function freshIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function post(url: string, payload: unknown, options: Partial<InjectOptions> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: freshIp(),
    ...options,
  });
}

function login(body: Record<string, unknown>, options: Partial<InjectOptions> = {}) {
  return post('/api/v1/auth/login', body, options);
}

async function registerBusiness(overrides: Parameters<typeof businessInput>[0] = {}) {
  const input = businessInput(overrides);
  const res = await post('/api/v1/businesses', input);
  expect(res.statusCode, res.body).toBe(201);
  return { input, account: res.json() as { id: string; email: string; name: string } };
}

async function registerUser(overrides: Parameters<typeof userInput>[0] = {}) {
  const input = userInput(overrides);
  const res = await post('/api/v1/users', input);
  expect(res.statusCode, res.body).toBe(201);
  return { input, account: res.json() as { id: string; email: string; username: string } };
}

async function loginCookie(email: string, extra: Record<string, unknown> = {}) {
  const res = await login({ email, password: DEFAULT_PASSWORD, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return { res, cookie: cookieFrom(res) };
}

async function bearerToken(email: string) {
  const res = await post('/api/v1/auth/tokens', { email, password: DEFAULT_PASSWORD });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { token: string }).token;
}

function getSession(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers });
}

function sessionCookieHeader(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const found = all.find((c) => c.startsWith('giftmart_session='));
  if (!found) throw new Error(`no giftmart_session in Set-Cookie: ${JSON.stringify(raw)}`);
  return found;
}

async function storedAccount(id: string) {
  const { rows } = await t.database.pool.query<{
    email: string;
    phone: string;
    password_hash: string;
    username: string | null;
  }>('SELECT email, phone, password_hash, username FROM accounts WHERE id = $1', [id]);
  return rows[0]!;
}

function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as {
    code: string;
    message: string;
    details: { fieldErrors: Record<string, string[]> };
  };
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.message).toBe(message);
  expect(body.details.fieldErrors[field]).toEqual([message]);
}

const routes = [
  { role: 'business', url: '/api/v1/businesses', input: () => businessInput() as Record<string, unknown> },
  { role: 'user', url: '/api/v1/users', input: () => userInput() as Record<string, unknown> },
] as const;

describe.each(routes)('POST $url validation', ({ url, input }) => {
  const cases: [string, (body: Record<string, unknown>) => void, string, string][] = [
    ['a missing name', (b) => delete b.name, 'name', 'please enter a name'],
    ['a blank name', (b) => (b.name = '   '), 'name', 'please enter a name'],
    [
      'a name over 100 characters',
      (b) => (b.name = 'n'.repeat(101)),
      'name',
      'a name is at most 100 characters',
    ],
    ['a missing email', (b) => delete b.email, 'email', 'please enter an email'],
    ['an empty email', (b) => (b.email = ''), 'email', 'please enter an email'],
    ['an email without @', (b) => (b.email = 'not-an-email'), 'email', 'please enter a valid email address'],
    [
      'an email without a domain',
      (b) => (b.email = 'someone@'),
      'email',
      'please enter a valid email address',
    ],
    [
      "a deleted account's reserved .invalid address",
      (b) => (b.email = 'deleted+someone@deleted.INVALID'),
      'email',
      'please enter a valid email address',
    ],
    ['a missing phone', (b) => delete b.phoneNumber, 'phoneNumber', 'please your phone number'],
    ['an empty phone', (b) => (b.phoneNumber = ''), 'phoneNumber', 'please your phone number'],
    ['a missing password', (b) => delete b.password, 'password', 'please enter a password'],
    ['an empty password', (b) => (b.password = ''), 'password', 'please enter a password'],
    [
      'a 7-character password',
      (b) => (b.password = b.confirmPassword = 'abcdefg'),
      'password',
      'password must be at least 8 characters',
    ],
    [
      'a 129-character password',
      (b) => (b.password = b.confirmPassword = 'p'.repeat(129)),
      'password',
      'password must be at most 128 characters',
    ],
    [
      'a missing confirmation',
      (b) => delete b.confirmPassword,
      'confirmPassword',
      'please confirm your password',
    ],
    [
      'an empty confirmation',
      (b) => (b.confirmPassword = ''),
      'confirmPassword',
      'please confirm your password',
    ],
    [
      'a confirmation that differs',
      (b) => (b.confirmPassword = `${String(b.password)}x`),
      'confirmPassword',
      'passwords must match',
    ],
  ];

  it.each(cases)('refuses %s', async (_name, change, field, message) => {
    const body = input();
    change(body);
    const res = await post(url, body);
    expectValidation(res, field, message);
  });

  it('accepts a password of exactly 8 and of exactly 128 characters', async () => {
    for (const password of ['abcdefgh', 'q'.repeat(128)]) {
      const body = { ...input(), password, confirmPassword: password };
      const res = await post(url, body);
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('names the first problem in message and lists every field in details', async () => {
    const res = await post(url, {});
    expect(res.statusCode).toBe(400);
    const body = res.json() as {
      code: string;
      message: string;
      details: { fieldErrors: Record<string, string[]> };
    };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toBe('please enter a name');
    expect(body.details.fieldErrors).toMatchObject({
      name: ['please enter a name'],
      email: ['please enter an email'],
      phoneNumber: ['please your phone number'],
      password: ['please enter a password'],
      confirmPassword: ['please confirm your password'],
    });
  });
});

describe('POST /api/v1/users validation of the username', () => {
  it.each([
    ['missing', undefined, 'please enter a username'],
    ['empty', '', 'please enter a username'],
    ['blank', '   ', 'please enter a username'],
    ['too short', 'ab', 'a username is 3 to 30 letters, digits, dots or underscores'],
    ['too long', 'a'.repeat(31), 'a username is 3 to 30 letters, digits, dots or underscores'],
    ['with a space', 'john doe', 'a username is 3 to 30 letters, digits, dots or underscores'],
    ['with an @', 'john@doe', 'a username is 3 to 30 letters, digits, dots or underscores'],
  ])('refuses a %s username', async (_name, username, message) => {
    const body: Record<string, unknown> = userInput();
    if (username === undefined) delete body.username;
    else body.username = username;
    expectValidation(await post('/api/v1/users', body), 'username', message);
  });

  it('stores the username in lower case', async () => {
    const username = `Mixed.Case_${unique()}`.slice(0, 30);
    const { account } = await registerUser({ username });
    expect(account.username).toBe(username.toLowerCase());
    expect((await storedAccount(account.id)).username).toBe(username.toLowerCase());
  });
});

describe('phone numbers', () => {
  it.each([
    ['national', '08031234567', '+2348031234567'],
    ['national with spaces', '0803 123 4567', '+2348031234567'],
    ['national with dashes', '0803-123-4567', '+2348031234567'],
    ['international with +', '+2348031234567', '+2348031234567'],
    ['international with + and separators', '+234 803-123-4567', '+2348031234567'],
    ['international without +', '2349051234567', '+2349051234567'],
    ['with brackets', '(0701) 234 5678', '+2347012345678'],
    ['surrounded by spaces', '  08121234567  ', '+2348121234567'],
  ])('accepts a %s number and stores it as E.164', async (_name, phoneNumber, e164) => {
    const { account } = await registerBusiness({ phoneNumber });
    expect((account as unknown as { phoneNumber: string }).phoneNumber).toBe(e164);
    expect((await storedAccount(account.id)).phone).toBe(e164);
  });

  it('accepts the number the old client sent (a JSON number, so without the leading 0)', async () => {
    const body = { ...userInput(), phoneNumber: 8031234567 };
    const res = await post('/api/v1/users', body);
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as { id: string; phoneNumber: string };
    expect(account.phoneNumber).toBe('+2348031234567');
    expect((await storedAccount(account.id)).phone).toBe('+2348031234567');
  });

  it.each([
    ['too short', '0803123456'],
    ['too short with separators', '0803-123-456'],
    ['too long', '080312345678'],
    ['American', '+14155552671'],
    ['British', '+447911123456'],
    ['a Nigerian landline', '01234567890'],
    ['not a number', 'call me maybe'],
    ['a short JSON number', 80312345],
  ])('refuses a phone number that is %s', async (_name, phoneNumber) => {
    const res = await post('/api/v1/users', { ...userInput(), phoneNumber });
    expectValidation(
      res,
      'phoneNumber',
      'please enter a Nigerian phone number of at least 11 digits, e.g. 0803 123 4567',
    );
  });

  it('refuses a phone number of the wrong type with the "required" message', async () => {
    const res = await post('/api/v1/businesses', { ...businessInput(), phoneNumber: true });
    expectValidation(res, 'phoneNumber', 'please your phone number');
  });
});

describe('registration', () => {
  it('registers a business and answers its public account, never the password', async () => {
    const input = businessInput({ email: `Biz-${unique()}@Example.TEST` });
    const res = await post('/api/v1/businesses', input);
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as Record<string, unknown>;
    expect(account).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: 'business',
      name: input.name,
      email: input.email.toLowerCase(),
      username: null,
      phoneNumber: `+234${input.phoneNumber.slice(1)}`,
      logoUrl: null,
      createdAt: expect.any(String),
    });
    expect(Date.now() - Date.parse(account.createdAt as string)).toBeLessThan(60_000);
    expect(res.body).not.toMatch(/argon2/i);
    expect(res.body).not.toMatch(/password/i);
  });

  it('registers a user and answers its public account, never the password', async () => {
    const input = userInput();
    const res = await post('/api/v1/users', input);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: 'user',
      name: input.name,
      email: input.email,
      username: input.username.toLowerCase(),
      phoneNumber: `+234${input.phoneNumber.slice(1)}`,
      logoUrl: null,
      createdAt: expect.any(String),
    });
    expect(res.body).not.toMatch(/argon2/i);
    expect(res.body).not.toMatch(/password/i);
  });

  it('stores the password as an argon2id hash, not as typed', async () => {
    const { account, input } = await registerUser();
    const stored = await storedAccount(account.id);
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.password_hash).not.toContain(input.password);
  });

  it('trims the name and lower-cases the email', async () => {
    const id = unique();
    const { account } = await registerBusiness({
      name: `  Trim ${id}  `,
      email: `  MiXeD-${id}@Example.Test `,
    });
    expect(account.name).toBe(`Trim ${id}`);
    expect(account.email).toBe(`mixed-${id}@example.test`);
  });

  it('gives every business a wallet at zero', async () => {
    const { account } = await registerBusiness();
    const { rows } = await t.database.pool.query<{ kind: string; currency: string }>(
      'SELECT kind, currency FROM ledger_accounts WHERE owner_id = $1',
      [account.id],
    );
    expect(rows).toEqual([{ kind: 'business_wallet', currency: 'NGN' }]);
  });
});

describe('uniqueness', () => {
  it('refuses a user the email of a business, whatever its case', async () => {
    const { input } = await registerBusiness();
    const res = await post('/api/v1/users', userInput({ email: input.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'EMAIL_TAKEN',
      message: 'An account with this email already exists.',
      details: { fieldErrors: { email: ['An account with this email already exists.'] } },
    });
  });

  it('refuses a business the email of a user', async () => {
    const { input } = await registerUser();
    const res = await post('/api/v1/businesses', businessInput({ email: input.email }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('refuses a second business with the same email', async () => {
    const { input } = await registerBusiness();
    const res = await post('/api/v1/businesses', businessInput({ email: input.email.replace('biz', 'BIZ') }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('refuses a username already taken, whatever its case', async () => {
    const { input } = await registerUser();
    const res = await post('/api/v1/users', userInput({ username: input.username.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'USERNAME_TAKEN',
      message: 'This username is taken. Please choose another.',
      details: { fieldErrors: { username: ['This username is taken. Please choose another.'] } },
    });
  });

  it('names both fields when email and username are both taken, email first', async () => {
    const { input } = await registerUser();
    const res = await post('/api/v1/users', userInput({ email: input.email, username: input.username }));
    expect(res.statusCode).toBe(409);
    const body = res.json() as { code: string; details: { fieldErrors: Record<string, string[]> } };
    expect(body.code).toBe('EMAIL_TAKEN');
    expect(Object.keys(body.details.fieldErrors).sort()).toEqual(['email', 'username']);
  });

  it('refuses a business name already taken, whatever its case', async () => {
    const { input } = await registerBusiness();
    const res = await post('/api/v1/businesses', businessInput({ name: input.name.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'BUSINESS_NAME_TAKEN',
      message: 'A business with this name already exists.',
      details: { fieldErrors: { name: ['A business with this name already exists.'] } },
    });
  });

  it('lets a user have the same name as a business (only business names are unique)', async () => {
    const { input } = await registerBusiness();
    const res = await post('/api/v1/users', userInput({ name: input.name }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('creates nothing when registration is refused', async () => {
    const { input } = await registerBusiness();
    const attempt = userInput({ email: input.email });
    expect((await post('/api/v1/users', attempt)).statusCode).toBe(409);
    const { rows } = await t.database.pool.query('SELECT 1 FROM accounts WHERE lower(username) = lower($1)', [
      attempt.username,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('concurrent registrations', () => {
  async function race(requests: { url: string; payload: Record<string, unknown> }[]) {
    const answers = await Promise.all(requests.map((r) => post(r.url, r.payload)));
    const statuses = answers.map((a) => a.statusCode).sort();
    return { answers, statuses };
  }

  it('lets exactly one of two users with the same email in, the other gets 409 (no 500)', async () => {
    const email = `race-${unique()}@example.test`;
    const { answers, statuses } = await race([
      { url: '/api/v1/users', payload: userInput({ email }) },
      { url: '/api/v1/users', payload: userInput({ email }) },
    ]);
    expect(statuses).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    const { rows } = await t.database.pool.query('SELECT id FROM accounts WHERE email = $1', [email]);
    expect(rows).toHaveLength(1);
  });

  it('lets exactly one of five businesses with the same email in, the rest get EMAIL_TAKEN', async () => {
    const email = `race-${unique()}@example.test`;
    const { answers, statuses } = await race(
      Array.from({ length: 5 }, () => ({ url: '/api/v1/businesses', payload: businessInput({ email }) })),
    );
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(a.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('lets exactly one of a business and a user with the same email in', async () => {
    const email = `race-${unique()}@example.test`;
    const { statuses } = await race([
      { url: '/api/v1/businesses', payload: businessInput({ email }) },
      { url: '/api/v1/users', payload: userInput({ email }) },
    ]);
    expect(statuses).toEqual([201, 409]);
  });

  it('races for a username end in USERNAME_TAKEN', async () => {
    const username = `race_${unique()}`.slice(0, 30);
    const { answers, statuses } = await race([
      { url: '/api/v1/users', payload: userInput({ username }) },
      { url: '/api/v1/users', payload: userInput({ username: username.toUpperCase() }) },
    ]);
    expect(statuses).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ code: 'USERNAME_TAKEN' });
  });

  it('races for a business name end in BUSINESS_NAME_TAKEN', async () => {
    const name = `Race ${unique()}`;
    const { answers, statuses } = await race([
      { url: '/api/v1/businesses', payload: businessInput({ name }) },
      { url: '/api/v1/businesses', payload: businessInput({ name }) },
    ]);
    expect(statuses).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ code: 'BUSINESS_NAME_TAKEN' });
  });
});

describe('POST /api/v1/auth/login', () => {
  it('logs a business in by email and answers the session', async () => {
    const { input, account } = await registerBusiness();
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      account: expect.objectContaining({ id: account.id, role: 'business', email: input.email }),
      expiresAt: null,
    });
    expect(res.body).not.toMatch(/argon2/i);
    expect(res.body).not.toMatch(/password/i);
    expect(cookieFrom(res)).toMatch(/^giftmart_session=[A-Za-z0-9_-]{40,}$/);
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const { input, account } = await registerBusiness();
    const res = await login({ email: `  ${input.email.toUpperCase()} `, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account: { id: account.id } });
  });

  it('logs a user in by username, in any case', async () => {
    const { input, account } = await registerUser();
    const res = await login({
      email: input.username.toUpperCase(),
      password: DEFAULT_PASSWORD,
      role: 'user',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      account: { id: account.id, role: 'user', username: input.username.toLowerCase() },
    });
  });

  it('logs a user in by email', async () => {
    const { input, account } = await registerUser();
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account: { id: account.id, role: 'user' } });
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const { input } = await registerBusiness();
    const wrong = await login({ email: input.email, password: 'not-the-password' });
    const unknown = await login({ email: `nobody-${unique()}@example.test`, password: DEFAULT_PASSWORD });
    const unknownUsername = await login({ email: `nobody_${unique()}`, password: DEFAULT_PASSWORD });
    const expected = { code: 'INVALID_CREDENTIALS', message: 'email or password incorrect' };
    for (const res of [wrong, unknown, unknownUsername]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(expected);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('does not let a business log in by its name as if it were a username', async () => {
    const { input } = await registerBusiness({ name: `bizname_${unique()}`.slice(0, 30) });
    const res = await login({ email: input.name, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('refuses a business that logs in as a user, but only after the password was right', async () => {
    const { input } = await registerBusiness();
    const wrong = await login({ email: input.email, password: 'not-the-password', role: 'user' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });

    const right = await login({ email: input.email, password: DEFAULT_PASSWORD, role: 'user' });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'This is a business account. Please log in as a business.',
    });
    expect(right.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a user that logs in as a business', async () => {
    const { input } = await registerUser();
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD, role: 'business' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'This is a user account. Please log in as a user.',
    });
  });

  it('accepts the matching role', async () => {
    const { input } = await registerBusiness();
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD, role: 'business' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each([
    ['no email', { password: DEFAULT_PASSWORD }, 'email', 'please enter an email'],
    ['a blank email', { email: '  ', password: DEFAULT_PASSWORD }, 'email', 'please enter an email'],
    ['no password', { email: 'a@example.test' }, 'password', 'please enter a password'],
    ['an empty password', { email: 'a@example.test', password: '' }, 'password', 'please enter a password'],
  ])('refuses %s with the form message', async (_name, body, field, message) => {
    expectValidation(await login(body), field, message);
  });

  it('refuses an unknown role', async () => {
    const res = await login({ email: 'a@example.test', password: DEFAULT_PASSWORD, role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { role: expect.any(Array) } },
    });
  });

  it('answers a body that is not JSON with a readable 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request could not be read. Check that it is valid JSON.',
    });
  });
});

describe('login rate limits', () => {
  const max = () => t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT;

  async function fail(email: string, times: number) {
    for (let i = 0; i < times; i++) {
      const res = await login({ email, password: `wrong-${i}-password` });
      expect(res.statusCode, res.body).toBe(401);
    }
  }

  it('refuses an account after its failures, even with the right password, from any IP', async () => {
    expect(max()).toBe(5);
    const { input } = await registerBusiness();
    await fail(input.email, max());
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(429);
    const body = res.json() as { code: string; message: string; details: { retryAfterSeconds: number } };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(t.config.LOGIN_FAILURE_WINDOW_SECONDS - 60);
    expect(retryAfter).toBeLessThanOrEqual(t.config.LOGIN_FAILURE_WINDOW_SECONDS);
    expect(body.details.retryAfterSeconds).toBe(retryAfter);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('checks at most the limit of passwords when 40 wrong ones arrive at once (login and tokens)', async () => {
    for (const url of ['/api/v1/auth/login', '/api/v1/auth/tokens']) {
      const { input } = await registerBusiness();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(url, { email: input.email, password: `wrong-${i}-password` }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(
        codes.filter((c) => c === 401),
        url,
      ).toHaveLength(max());
      expect(
        codes.filter((c) => c === 429),
        url,
      ).toHaveLength(40 - max());
      expect((await post(url, { email: input.email, password: DEFAULT_PASSWORD })).statusCode).toBe(429);
    }
  });

  it('still lets the account in one failure short of the limit', async () => {
    const { input } = await registerBusiness();
    await fail(input.email, max() - 1);
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('counts the account whatever the case of the email', async () => {
    const { input } = await registerBusiness();
    for (let i = 0; i < max(); i++) {
      const email = i % 2 === 0 ? input.email.toUpperCase() : input.email;
      expect((await login({ email, password: 'wrong-password' })).statusCode).toBe(401);
    }
    expect((await login({ email: input.email, password: DEFAULT_PASSWORD })).statusCode).toBe(429);
  });

  it('counts failures by username and by email against the same user', async () => {
    const { input } = await registerUser();
    for (let i = 0; i < max(); i++) {
      const email = i % 2 === 0 ? input.email : input.username;
      expect((await login({ email, password: 'wrong-password' })).statusCode).toBe(401);
    }
    expect((await login({ email: input.email, password: DEFAULT_PASSWORD })).statusCode).toBe(429);
    expect((await login({ email: input.username, password: DEFAULT_PASSWORD })).statusCode).toBe(429);
  });

  it('a successful login by username clears failures made by email', async () => {
    const { input } = await registerUser();
    await fail(input.email, max() - 1);
    expect((await login({ email: input.username, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    await fail(input.email, max() - 1);
    expect((await login({ email: input.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
  });

  it('limits the bearer-token route and the cookie route together', async () => {
    const { input } = await registerUser();
    await fail(input.email, max());
    const res = await post('/api/v1/auth/tokens', { email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('limits guesses at an email that has no account', async () => {
    const email = `ghost-${unique()}@example.test`;
    await fail(email, max());
    const res = await login({ email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(429);
  });

  it('a successful login clears the account counter', async () => {
    const { input } = await registerBusiness();
    await fail(input.email, max() - 1);
    expect((await login({ email: input.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    await fail(input.email, max() - 1);
    const res = await login({ email: input.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('does not limit a different account', async () => {
    const { input: victim } = await registerBusiness();
    const { input: other } = await registerBusiness();
    await fail(victim.email, max());
    expect((await login({ email: other.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses an IP after its failures across distinct accounts, but not other IPs', async () => {
    const strict = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '3' });
    try {
      const ip = freshIp();
      const accounts = await Promise.all([
        registerBusiness(),
        registerUser(),
        registerBusiness(),
        registerUser(),
      ]);
      for (const { input } of accounts.slice(0, 3)) {
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: input.email, password: 'wrong-password' },
          remoteAddress: ip,
        });
        expect(res.statusCode).toBe(401);
      }
      const fourth = accounts[3]!.input;
      const blocked = await strict.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: fourth.email, password: DEFAULT_PASSWORD },
        remoteAddress: ip,
      });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({
        code: 'RATE_LIMITED',
        details: { retryAfterSeconds: expect.any(Number) },
      });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

      const elsewhere = await strict.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: fourth.email, password: DEFAULT_PASSWORD },
        remoteAddress: freshIp(),
      });
      expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('a successful login does not reset the IP counter (one good account must not buy more guesses)', async () => {
    const strict = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '2' });
    try {
      const ip = freshIp();
      const [a, b] = await Promise.all([registerBusiness(), registerUser()]);
      const send = (email: string, password: string) =>
        strict.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email, password },
          remoteAddress: ip,
        });
      expect((await send(a.input.email, 'wrong-password')).statusCode).toBe(401);
      expect((await send(b.input.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
      expect((await send(a.input.email, 'wrong-password')).statusCode).toBe(401);
      expect((await send(b.input.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, and ends with the browser without "remember"', async () => {
    const { input } = await registerBusiness();
    const { res } = await loginCookie(input.email);
    const header = sessionCookieHeader(res);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).not.toMatch(/Expires=/i);
    expect(header).not.toMatch(/Max-Age=/i);
    expect(header).not.toMatch(/; Secure/i);
    expect(res.json()).toMatchObject({ expiresAt: null });
  });

  it('lasts about 30 days with "remember"', async () => {
    const { input } = await registerUser();
    const { res } = await loginCookie(input.email, { remember: true });
    const header = sessionCookieHeader(res);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    const expires = /Expires=([^;]+)/i.exec(header)?.[1];
    expect(expires).toBeDefined();
    const inMs = Date.parse(expires!) - Date.now();
    expect(inMs).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(inMs).toBeLessThan(30 * DAY_MS + 60_000);
    const expiresAt = Date.parse((res.json() as { expiresAt: string }).expiresAt);
    expect(Math.abs(expiresAt - Date.parse(expires!))).toBeLessThan(1_000);
  });

  it('is Secure in production', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      CODE_ENCRYPTION_KEY: 'k'.repeat(40),
      PUBLIC_URL: 'https://giftmart.example',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    });
    try {
      const { input } = await registerBusiness();
      const res = await prod.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: input.email, password: DEFAULT_PASSWORD },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(sessionCookieHeader(res)).toMatch(/; Secure/i);
    } finally {
      await prod.close();
    }
  });

  it('gives a new token on every login', async () => {
    const { input } = await registerBusiness();
    const first = await loginCookie(input.email);
    const second = await loginCookie(input.email);
    expect(first.cookie).not.toBe(second.cookie);
  });

  it('stores only a hash of the token', async () => {
    const { input, account } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const token = cookie.split('=')[1]!;
    const { rows } = await t.database.pool.query<{ token_hash: string }>(
      'SELECT token_hash FROM sessions WHERE account_id = $1',
      [account.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('GET /api/v1/auth/session', () => {
  it('answers the signed-in account from the cookie', async () => {
    const { input, account } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const res = await getSession({ cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      account: {
        id: account.id,
        role: 'business',
        name: input.name,
        email: input.email,
        username: null,
        phoneNumber: `+234${input.phoneNumber.slice(1)}`,
        logoUrl: null,
        createdAt: expect.any(String),
      },
      expiresAt: null,
    });
    expect(res.body).not.toMatch(/argon2/i);
    expect(res.body).not.toMatch(/password/i);
  });

  it('says when a remembered session ends', async () => {
    const { input } = await registerUser();
    const { cookie } = await loginCookie(input.email, { remember: true });
    const res = await getSession({ cookie });
    expect(res.statusCode).toBe(200);
    const inMs = Date.parse((res.json() as { expiresAt: string }).expiresAt) - Date.now();
    expect(inMs).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(inMs).toBeLessThan(30 * DAY_MS + 60_000);
  });

  it('answers the account of a Bearer token', async () => {
    const { input, account } = await registerUser();
    const token = await bearerToken(input.username);
    const res = await getSession({ authorization: `Bearer ${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account: { id: account.id, role: 'user' } });
  });

  it('prefers the Bearer token over the cookie', async () => {
    const { input: biz } = await registerBusiness();
    const { input: user, account: userAccount } = await registerUser();
    const { cookie } = await loginCookie(biz.email);
    const token = await bearerToken(user.email);
    const res = await getSession({ cookie, authorization: `Bearer ${token}` });
    expect(res.json()).toMatchObject({ account: { id: userAccount.id } });
  });

  it.each([
    ['nothing', {}],
    ['an unknown cookie', { cookie: `giftmart_session=${'x'.repeat(43)}` }],
    ['a too-short cookie', { cookie: 'giftmart_session=abc' }],
    ['an unknown Bearer token', { authorization: `Bearer ${'y'.repeat(43)}` }],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers 401 to %s', async (_name, headers) => {
    const res = await getSession(headers as Record<string, string>);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
  });

  it('does not fall back to the cookie when the Bearer token is wrong', async () => {
    const { input } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const res = await getSession({ cookie, authorization: `Bearer ${'z'.repeat(43)}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/v1/auth/tokens', () => {
  it('issues a 30-day Bearer token and sets no cookie', async () => {
    const { input, account } = await registerBusiness();
    const res = await post('/api/v1/auth/tokens', {
      email: input.email,
      password: DEFAULT_PASSWORD,
      role: 'business',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { token: string; expiresAt: string; account: { id: string } };
    expect(body.account.id).toBe(account.id);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const inMs = Date.parse(body.expiresAt) - Date.now();
    expect(inMs).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(inMs).toBeLessThan(30 * DAY_MS + 60_000);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).not.toMatch(/argon2/i);
    expect(res.body).not.toMatch(/password/i);
  });

  it('refuses a wrong password like login does', async () => {
    const { input } = await registerBusiness();
    const res = await post('/api/v1/auth/tokens', { email: input.email, password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'email or password incorrect' });
  });

  it('refuses the wrong role', async () => {
    const { input } = await registerUser();
    const res = await post('/api/v1/auth/tokens', {
      email: input.email,
      password: DEFAULT_PASSWORD,
      role: 'business',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('DELETE /api/v1/auth/session (log out)', () => {
  it('revokes the cookie session and clears the cookie', async () => {
    const { input } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie, ...sameOrigin },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const cleared = sessionCookieHeader(res);
    expect(cleared).toMatch(/^giftmart_session=;/);
    expect(Date.parse(/Expires=([^;]+)/i.exec(cleared)![1]!)).toBeLessThan(Date.now());

    expect((await getSession({ cookie })).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie, ...sameOrigin },
    });
    expect(again.statusCode).toBe(401);
  });

  it('revokes only that session: another login of the same account stays signed in', async () => {
    const { input } = await registerUser();
    const first = await loginCookie(input.email);
    const second = await loginCookie(input.email);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie: first.cookie, ...sameOrigin },
    });
    expect(out.statusCode).toBe(204);
    expect((await getSession({ cookie: first.cookie })).statusCode).toBe(401);
    expect((await getSession({ cookie: second.cookie })).statusCode).toBe(200);
  });

  it('revokes a Bearer token, with no Origin needed', async () => {
    const { input } = await registerBusiness();
    const token = await bearerToken(input.email);
    const authorization = `Bearer ${token}`;
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { authorization },
    });
    expect(res.statusCode, res.body).toBe(204);
    const after = await getSession({ authorization });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers 401 when nobody is signed in', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/session', headers: sameOrigin });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('CSRF protection of cookie-authenticated changes', () => {
  const rejected = {
    code: 'CSRF_REJECTED',
    message:
      'This request did not come from Giftmart itself, so it was refused. Reload the page and try again.',
  };

  async function signedIn() {
    const { input } = await registerBusiness();
    return (await loginCookie(input.email)).cookie;
  }

  function logout(headers: Record<string, string>) {
    return t.app.inject({ method: 'DELETE', url: '/api/v1/auth/session', headers });
  }

  it('refuses a cookie-authenticated change without Origin or Referer, and the session survives', async () => {
    const cookie = await signedIn();
    const res = await logout({ cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(rejected);
    expect((await getSession({ cookie })).statusCode).toBe(200);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a foreign Origin on the same host name but another port', { origin: 'http://localhost:8080' }],
    [
      'an https Origin with the same host and port sent to the http server',
      { origin: 'https://localhost:80' },
    ],
    [
      'an https Origin on the default https port sent to the http server',
      { origin: 'https://localhost:443' },
    ],
    ['Origin "null"', { origin: 'null' }],
    ['an Origin that is not a URL', { origin: 'not a url' }],
    ['a foreign Referer', { referer: 'https://evil.example/page' }],
  ])('refuses %s', async (_name, headers) => {
    const cookie = await signedIn();
    const res = await logout({ cookie, host: sameOrigin.host, ...headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(rejected);
    expect((await getSession({ cookie })).statusCode).toBe(200);
  });

  it('accepts a same-origin Origin', async () => {
    const cookie = await signedIn();
    const res = await logout({ cookie, ...sameOrigin });
    expect(res.statusCode, res.body).toBe(204);
  });

  it('accepts a same-origin Origin when the Host header leaves out the default port', async () => {
    const cookie = await signedIn();
    const res = await logout({ cookie, origin: 'http://localhost', host: 'localhost' });
    expect(res.statusCode, res.body).toBe(204);
  });

  it('refuses an https Origin with the same host name (no port) on the http server', async () => {
    const cookie = await signedIn();
    const res = await logout({ cookie, origin: 'https://localhost', host: 'localhost' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(rejected);
  });

  it('takes the scheme from X-Forwarded-Proto only behind a trusted proxy', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const send = async (headers: Record<string, string>) =>
        proxied.app.inject({
          method: 'DELETE',
          url: '/api/v1/auth/session',
          headers: { cookie: await signedIn(), host: 'giftmart.test', ...headers },
        });
      const https = await send({ origin: 'https://giftmart.test', 'x-forwarded-proto': 'https' });
      expect(https.statusCode, https.body).toBe(204);
      const http = await send({ origin: 'http://giftmart.test', 'x-forwarded-proto': 'https' });
      expect(http.statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
    const direct = await logout({
      cookie: await signedIn(),
      host: 'giftmart.test',
      origin: 'https://giftmart.test',
      'x-forwarded-proto': 'https',
    });
    expect(direct.statusCode).toBe(403);
  });

  it('accepts a same-origin Referer when there is no Origin', async () => {
    const cookie = await signedIn();
    const res = await logout({
      cookie,
      host: 'giftmart.test:3000',
      referer: 'http://giftmart.test:3000/business-dashboard',
    });
    expect(res.statusCode, res.body).toBe(204);
  });

  it('accepts an origin listed in TRUSTED_ORIGINS', async () => {
    const trusting = await createTestApp({ TRUSTED_ORIGINS: 'https://shop.giftmart.test' });
    try {
      const cookie = await signedIn();
      const foreign = await trusting.app.inject({
        method: 'DELETE',
        url: '/api/v1/auth/session',
        headers: { cookie, origin: 'https://other.giftmart.test' },
      });
      expect(foreign.statusCode).toBe(403);
      const trusted = await trusting.app.inject({
        method: 'DELETE',
        url: '/api/v1/auth/session',
        headers: { cookie, origin: 'https://shop.giftmart.test' },
      });
      expect(trusted.statusCode, trusted.body).toBe(204);
    } finally {
      await trusting.close();
    }
  });

  it('does not ask a Bearer client for an Origin', async () => {
    const { input } = await registerUser();
    const token = await bearerToken(input.email);
    const res = await logout({ authorization: `Bearer ${token}`, origin: 'https://some-api-client.example' });
    expect(res.statusCode, res.body).toBe(204);
  });

  it('does not check reads', async () => {
    const cookie = await signedIn();
    const res = await getSession({ cookie, origin: 'https://evil.example' });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/v1/wallet', () => {
  it('answers a new business its zero balance in the platform currency', async () => {
    const { input } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      balance: { amount: 0, currency: 'NGN' },
      pinSet: false,
      defaultBankAccount: null,
    });
  });

  it('answers a business signed in with a Bearer token', async () => {
    const { input } = await registerBusiness();
    const token = await bearerToken(input.email);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/wallet',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      balance: { amount: 0, currency: 'NGN' },
      pinSet: false,
      defaultBankAccount: null,
    });
  });

  it('refuses a user with 403', async () => {
    const { input } = await registerUser();
    const { cookie } = await loginCookie(input.email);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: { cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a business can do this.' });
  });

  it('refuses a visitor with 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
  });

  it('refuses a business after it logged out', async () => {
    const { input } = await registerBusiness();
    const { cookie } = await loginCookie(input.email);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie, ...sameOrigin },
    });
    expect(out.statusCode).toBe(204);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });
});

describe('unknown API routes', () => {
  it.each([
    ['GET', '/api/v1/auth/nothing'],
    ['POST', '/api/v1/accounts'],
    ['GET', '/api/no-such-thing'],
    ['DELETE', '/api/v1/wallet'],
  ] as const)('%s %s answers a JSON 404', async (method, url) => {
    const res = await t.app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: `No such API route: ${method} ${url}` });
  });
});
