import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../../../shared/notifications/schemas';
import { passwordMessages } from '../../../shared/accounts/schemas';
import { DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';
import {
  cookieFrom,
  createTestApp,
  freshIp,
  registerAndLogin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';

/**
 * Passwords (issue 12): change with the current password, "forgot password" by a mailed single-use link.
 * Every request comes from its own made-up IP unless a test is about the per-IP limit.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'brand-new-pass-42';

function post(url: string, payload: unknown, options: Partial<InjectOptions> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: freshIp(),
    ...options,
  });
}

function login(email: string, password: string) {
  return post('/api/v1/auth/login', { email, password });
}

async function bearer(email: string, password = DEFAULT_PASSWORD) {
  const res = await post('/api/v1/auth/tokens', { email, password });
  expect(res.statusCode, res.body).toBe(201);
  return `Bearer ${(res.json() as { token: string }).token}`;
}

function sessionWith(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers });
}

async function mailbox(to: string): Promise<Mail[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Mail[] }).items;
}

function changePassword(
  account: Awaited<ReturnType<typeof registerAndLogin>>,
  body: unknown,
  options: Partial<InjectOptions> = {},
) {
  return account.request({
    method: 'POST',
    url: '/api/v1/auth/password',
    payload: body as InjectOptions['payload'],
    remoteAddress: freshIp(),
    ...options,
  });
}

function requestReset(email: string, options: Partial<InjectOptions> = {}) {
  return post('/api/v1/auth/password-reset', { email }, options);
}

/** Asks for a reset link and reads the token out of the mail, as the owner would. */
async function resetToken(email: string): Promise<string> {
  const res = await requestReset(email);
  expect(res.statusCode, res.body).toBe(202);
  const [mail] = (await mailbox(email)).filter((m) => m.kind === 'password_reset');
  expect(mail, 'a reset mail').toBeDefined();
  const match = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail!.text);
  expect(match, mail!.text).not.toBeNull();
  return match![1]!;
}

function confirm(token: string, newPassword = NEW_PASSWORD) {
  return post('/api/v1/auth/password-reset/confirm', { token, newPassword });
}

describe('POST /api/v1/auth/password (change password)', () => {
  it('changes it, keeps this session, signs out every other (cookie and Bearer), and tells the owner', async () => {
    const owner = await registerAndLogin(t.app, 'business');
    const other = cookieFrom(await login(owner.input.email, DEFAULT_PASSWORD));
    const token = await bearer(owner.input.email);

    const res = await changePassword(owner, { currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(204);

    expect((await sessionWith({ cookie: owner.cookie })).statusCode).toBe(200);
    expect((await sessionWith({ cookie: other })).statusCode).toBe(401);
    expect((await sessionWith({ authorization: token })).statusCode).toBe(401);
    expect((await login(owner.input.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await login(owner.input.email, NEW_PASSWORD)).statusCode).toBe(200);

    const changed = (await mailbox(owner.input.email)).find((m) => m.kind === 'security_alert');
    expect(changed?.subject).toBe('Your Giftmart password was changed');
    expect(changed?.text).toMatch(/changed on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(changed?.text).toContain('If it was not you');
    expect(changed?.text).toContain('/forgot-password?role=business');
    const notes = await owner.request({ method: 'GET', url: '/api/v1/notifications' });
    expect(notes.json().items[0]).toMatchObject({
      kind: 'security_alert',
      title: 'Your password was changed',
    });
  });

  it('refuses a wrong current password (403, under the field), a reused or too-short new one, control characters (400)', async () => {
    const user = await registerAndLogin(t.app, 'user');
    const wrong = await changePassword(user, {
      currentPassword: 'not-my-password',
      newPassword: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({
      code: 'PASSWORD_INCORRECT',
      message: passwordMessages.currentWrong,
      details: { fieldErrors: { currentPassword: [passwordMessages.currentWrong] } },
    });

    const same = await changePassword(user, {
      currentPassword: DEFAULT_PASSWORD,
      newPassword: DEFAULT_PASSWORD,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().details.fieldErrors.newPassword).toEqual([passwordMessages.sameAsOld]);

    const short = await changePassword(user, { currentPassword: DEFAULT_PASSWORD, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.fieldErrors.newPassword).toEqual(['password must be at least 8 characters']);

    for (const body of [
      { currentPassword: DEFAULT_PASSWORD, newPassword: 'new\u0000password-1' },
      { currentPassword: 'x\u0000', newPassword: NEW_PASSWORD },
      { currentPassword: DEFAULT_PASSWORD, newPassword: 'x'.repeat(100_000) },
      { currentPassword: 12345678, newPassword: NEW_PASSWORD },
      {},
    ]) {
      const res = await changePassword(user, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    // Nothing changed.
    expect((await login(user.input.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('needs a session (401) and, with a cookie, our own origin (403)', async () => {
    const none = await post('/api/v1/auth/password', {
      currentPassword: DEFAULT_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(none.statusCode).toBe(401);
    const user = await registerAndLogin(t.app, 'user');
    const csrf = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: { currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(csrf.statusCode).toBe(403);
    expect((await login(user.input.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('counts wrong current passwords in the login limit, atomically: of 20 at once, at most 5 are checked', async () => {
    const user = await registerAndLogin(t.app, 'user');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        changePassword(user, { currentPassword: 'wrong-password-1', newPassword: NEW_PASSWORD }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 403)).toHaveLength(t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(codes.filter((c) => c === 429)).toHaveLength(20 - t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    const limited = results.find((r) => r.statusCode === 429)!;
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(limited.json().message).toMatch(/^Too many wrong passwords\. Try again in \d+ minutes?\.$/);
    // The same budget as logins: the account is locked there too, even with the right password.
    expect((await login(user.input.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
  });

  it('two changes sent at once with the same current password make one change', async () => {
    const user = await registerAndLogin(t.app, 'user');
    const results = await Promise.all(
      ['first-new-pass-1', 'second-new-pass-2'].map((newPassword) =>
        changePassword(user, { currentPassword: DEFAULT_PASSWORD, newPassword }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([204, 403]);
    const winner = results[0]!.statusCode === 204 ? 'first-new-pass-1' : 'second-new-pass-2';
    expect((await login(user.input.email, winner)).statusCode).toBe(200);
    const mails = (await mailbox(user.input.email)).filter((m) => m.kind === 'security_alert');
    expect(mails).toHaveLength(1);
  });
});

describe('POST /api/v1/auth/password-reset (forgot password)', () => {
  it('answers the same for an account, an unknown address and a deleted account; mails only the account a link', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const gone = await registerAndLogin(t.app, 'business');
    await t.database.pool.query('UPDATE accounts SET deleted_at = now() WHERE id = $1', [gone.account.id]);
    const unknown = `nobody-${Date.now()}@example.test`;

    const answers = await Promise.all(
      [owner.input.email, unknown, gone.input.email].map((email) => requestReset(email)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: passwordMessages.resetRequested });
      expect(res.body).toBe(answers[0]!.body);
    }
    expect(await mailbox(unknown)).toHaveLength(0);
    expect((await mailbox(gone.input.email)).filter((m) => m.kind === 'password_reset')).toHaveLength(0);

    const [mail] = (await mailbox(owner.input.email)).filter((m) => m.kind === 'password_reset');
    expect(mail!.subject).toBe('Reset your Giftmart password');
    expect(mail!.text).toContain('works once, for 30 minutes');
    const link = /(\S+\/reset-password#token=([A-Za-z0-9_-]+)&role=user)/.exec(mail!.text);
    expect(link, mail!.text).not.toBeNull();
    expect(link![1]!.startsWith(`http://127.0.0.1:${t.config.PORT}/reset-password#token=`)).toBe(true);
    const token = link![2]!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Only the SHA-256 is stored, expiring in 30 minutes.
    const { rows } = await t.database.pool.query<{ token_hash: string; minutes: number }>(
      `SELECT token_hash, extract(epoch FROM expires_at - created_at) / 60 AS minutes
         FROM account_tokens WHERE account_id = $1 AND purpose = 'password_reset'`,
      [owner.account.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(Math.round(Number(rows[0]!.minutes))).toBe(30);
  });

  it('the address is case-insensitive, and the role is optional but checked', async () => {
    const owner = await registerAndLogin(t.app, 'business');
    const res = await post('/api/v1/auth/password-reset', {
      email: owner.input.email.toUpperCase(),
      role: 'business',
    });
    expect(res.statusCode).toBe(202);
    expect((await mailbox(owner.input.email)).filter((m) => m.kind === 'password_reset')).toHaveLength(1);
    const badRole = await post('/api/v1/auth/password-reset', { email: owner.input.email, role: 'admin' });
    expect(badRole.statusCode).toBe(400);
  });

  it('refuses a NUL, a non-address, a huge or missing field (400)', async () => {
    for (const body of [
      { email: 'a\u0000@example.test' },
      { email: 'not-an-address' },
      { email: `${'a'.repeat(10_000)}@example.test` },
      { email: 42 },
      {},
    ]) {
      const res = await post('/api/v1/auth/password-reset', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('limits requests per address (3 an hour), whether or not it has an account', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    for (const email of [owner.input.email, `nobody-${Date.now()}@example.test`]) {
      for (let i = 0; i < 3; i += 1) expect((await requestReset(email)).statusCode).toBe(202);
      const over = await requestReset(email);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(over.json().message).toMatch(/^Too many password reset requests\. Try again in \d+ minutes?\.$/);
    }
    expect((await mailbox(owner.input.email)).filter((m) => m.kind === 'password_reset')).toHaveLength(3);
  });

  it('limits requests per IP (10 an hour), counted atomically', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        requestReset(`ip-limit-${i}-${Date.now()}@example.test`, { remoteAddress: ip }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 202)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(6);
    // Another address from another IP is still served.
    expect((await requestReset(`other-${Date.now()}@example.test`)).statusCode).toBe(202);
  });

  it('a new link ends the older one: at most one live link per account, even when asked for at once', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const first = await resetToken(owner.input.email);
    await Promise.all([requestReset(owner.input.email), requestReset(owner.input.email)]);
    const { rows } = await t.database.pool.query(
      `SELECT 1 FROM account_tokens WHERE account_id = $1 AND purpose = 'password_reset'
          AND used_at IS NULL AND expires_at > now()`,
      [owner.account.id],
    );
    expect(rows).toHaveLength(1);
    const old = await confirm(first);
    expect(old.statusCode).toBe(410);
  });
});

describe('POST /api/v1/auth/password-reset/confirm', () => {
  it('sets the password, signs out every session, lifts the login lock-out, mails the owner; it does not sign in', async () => {
    const owner = await registerAndLogin(t.app, 'business');
    const token = await bearer(owner.input.email);
    // Lock the account out of logins with wrong passwords.
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT; i += 1) {
      expect((await login(owner.input.email, 'wrong-password-1')).statusCode).toBe(401);
    }
    expect((await login(owner.input.email, DEFAULT_PASSWORD)).statusCode).toBe(429);

    const link = await resetToken(owner.input.email);
    const res = await confirm(link);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.headers['set-cookie']).toBeUndefined();

    expect((await sessionWith({ cookie: owner.cookie })).statusCode).toBe(401);
    expect((await sessionWith({ authorization: token })).statusCode).toBe(401);
    expect((await login(owner.input.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await login(owner.input.email, NEW_PASSWORD)).statusCode).toBe(200);

    const changed = (await mailbox(owner.input.email)).find((m) => m.kind === 'security_alert');
    expect(changed?.subject).toBe('Your Giftmart password was changed');
    expect(changed?.text).toContain('reset with an e-mailed link');
  });

  it('works once: used, expired and unknown links get one answer (410 RESET_LINK_INVALID)', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const link = await resetToken(owner.input.email);
    expect((await confirm(link)).statusCode).toBe(204);
    const again = await confirm(link, 'another-pass-77');
    const unknown = await confirm('A'.repeat(43));
    const expected = {
      code: 'RESET_LINK_INVALID',
      message: 'This reset link has expired or was already used. Ask for a new one.',
    };
    for (const res of [again, unknown]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toEqual(expected);
    }

    const expiring = await resetToken(owner.input.email);
    await t.database.pool.query(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second'
        WHERE account_id = $1 AND used_at IS NULL`,
      [owner.account.id],
    );
    const expired = await confirm(expiring);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual(expected);
    expect((await login(owner.input.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('20 confirms of one link at once: exactly one sets the password', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const link = await resetToken(owner.input.email);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => confirm(link, `parallel-pass-${i}`)),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 204)).toHaveLength(1);
    expect(codes.filter((c) => c === 410)).toHaveLength(19);
    const winner = codes.indexOf(204);
    expect((await login(owner.input.email, `parallel-pass-${winner}`)).statusCode).toBe(200);
    const mails = (await mailbox(owner.input.email)).filter((m) => m.kind === 'security_alert');
    expect(mails).toHaveLength(1);
  });

  it('refuses a weak password without using the link, and NUL or huge fields (400)', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const link = await resetToken(owner.input.email);
    const weak = await confirm(link, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().details.fieldErrors.newPassword).toEqual(['password must be at least 8 characters']);
    for (const body of [
      { token: `${link}\u0000`, newPassword: NEW_PASSWORD },
      { token: link, newPassword: 'abc\u0000defgh' },
      { token: 'x'.repeat(100_000), newPassword: NEW_PASSWORD },
      { token: link },
      { token: 7, newPassword: NEW_PASSWORD },
    ]) {
      const res = await post('/api/v1/auth/password-reset/confirm', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    // The link still works after all that.
    expect((await confirm(link)).statusCode).toBe(204);
  });

  it('a password change ends a live reset link', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const link = await resetToken(owner.input.email);
    const res = await changePassword(owner, { currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(204);
    expect((await confirm(link, 'attacker-pass-1')).statusCode).toBe(410);
  });
});

describe('bad input to the password and device routes', () => {
  it('wrong content types, arrays, null and nested junk are 4xx { code, message }, never 5xx', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const routes: [InjectOptions['method'], string][] = [
      ['POST', '/api/v1/auth/password'],
      ['POST', '/api/v1/auth/password-reset'],
      ['POST', '/api/v1/auth/password-reset/confirm'],
      ['GET', '/api/v1/auth/sessions'],
      ['DELETE', '/api/v1/auth/sessions'],
      ['DELETE', '/api/v1/auth/sessions/00000000-0000-0000-0000-000000000000'],
    ];
    const bodies: Partial<InjectOptions>[] = [
      { payload: 'email=a@b.c', headers: { 'content-type': 'text/plain' } },
      { payload: '[]', headers: { 'content-type': 'application/json' } },
      { payload: 'null', headers: { 'content-type': 'application/json' } },
      { payload: '{"email":', headers: { 'content-type': 'application/json' } },
      { payload: { email: { $ne: null }, token: ['a'], newPassword: { a: 1 }, currentPassword: [] } },
    ];
    for (const [method, url] of routes) {
      for (const body of bodies) {
        for (const signedIn of [false, true]) {
          const options = {
            method,
            url,
            remoteAddress: freshIp(),
            ...body,
            headers: { ...(body.headers ?? {}) },
          } as InjectOptions;
          const res = signedIn ? await owner.request(options) : await t.app.inject(options);
          const label = `${method} ${url} ${JSON.stringify(body.payload)} ${signedIn}`;
          expect(res.statusCode, label).toBeLessThan(500);
          if (res.statusCode >= 400) expect(Object.keys(res.json()).sort(), label).toContain('code');
        }
      }
    }
    // None of that signed the owner out.
    expect((await sessionWith({ cookie: owner.cookie })).statusCode).toBe(200);
  });
});
