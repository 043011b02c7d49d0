import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createHmac, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';
import {
  createTestApp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';
import { pinMessages } from '../../../shared/wallet/pin';
import { hashPassword } from '../../lib/passwords';
import { replacePinHash } from './pin.repository';
import { assertPin } from './pin.service';

/** The transaction PIN API (issue 5): create, change, status, the lock-out and the verify function. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What assertPin needs: the database and the key the PIN's hash is derived from. */
const pinDeps = () => ({ db: t.database.db, config: t.config });

type Requester = Awaited<ReturnType<typeof registerAndLogin>>['request'];

async function business() {
  return registerAndLogin(t.app, 'business');
}

function createPin(request: Requester, pin: string, confirmPin = pin) {
  return request({ method: 'POST', url: '/api/v1/wallet/pin', payload: { pin, confirmPin } });
}

function changePin(request: Requester, payload: Record<string, unknown>) {
  return request({ method: 'PUT', url: '/api/v1/wallet/pin', payload: payload as InjectOptions['payload'] });
}

function status(request: Requester) {
  return request({ method: 'GET', url: '/api/v1/wallet/pin' });
}

async function businessWithPin(pin = '2580') {
  const b = await business();
  const res = await createPin(b.request, pin);
  expect(res.statusCode, res.body).toBe(201);
  return b;
}

function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as { code: string; details: { fieldErrors: Record<string, string[]> } };
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.details.fieldErrors[field]).toContain(message);
}

async function storedRow(accountId: string) {
  const { rows } = await t.database.pool.query<{
    pin_hash: string;
    failed_attempts: number;
    locked_until: Date | null;
  }>('SELECT pin_hash, failed_attempts, locked_until FROM transaction_pins WHERE account_id = $1', [
    accountId,
  ]);
  return rows[0];
}

/** Spends `count` wrong tries through the verify function and returns the errors' codes and messages. */
async function wrongTries(accountId: string, count: number, pin = '9999') {
  const results: { code: string; message: string; details?: Record<string, unknown> }[] = [];
  for (let i = 0; i < count; i += 1) {
    const error = await assertPin(pinDeps(), accountId, pin).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; details?: Record<string, unknown> },
    );
    if (!error) throw new Error('a wrong PIN was accepted');
    results.push({ code: error.code, message: error.message, details: error.details });
  }
  return results;
}

describe('POST /api/v1/wallet/pin', () => {
  it('creates the PIN (201), stores a keyed hash (never the PIN) and reports it in GET and the wallet', async () => {
    const b = await business();
    const before = await status(b.request);
    expect(before.json()).toEqual({ set: false, lockedUntil: null, attemptsLeft: 5, resetRequired: false });
    expect((await b.request({ method: 'GET', url: '/api/v1/wallet' })).json()).toMatchObject({
      pinSet: false,
    });

    const res = await createPin(b.request, '2580');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ set: true, lockedUntil: null, attemptsLeft: 5, resetRequired: false });
    expect(res.body).not.toContain('2580');

    const row = await storedRow(b.account.id);
    expect(row?.pin_hash).toMatch(/^hmac-sha256\$v1\$[0-9a-f]{64}$/);
    // (Not `not.toContain('2580')`: one 64-digit hex digest in about a thousand contains any 4 given digits.)
    expect(row!.pin_hash.split('$')).not.toContain('2580');
    expect((await status(b.request)).json()).toEqual({
      set: true,
      lockedUntil: null,
      attemptsLeft: 5,
      resetRequired: false,
    });
    expect((await b.request({ method: 'GET', url: '/api/v1/wallet' })).json()).toMatchObject({
      pinSet: true,
    });
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it.each(['0000', '1111', '7777', '0123', '1234', '2345', '6789', '9876', '4321', '3210'])(
    'refuses the weak PIN %s',
    async (pin) => {
      const b = await business();
      expectValidation(await createPin(b.request, pin), 'pin', pinMessages.weak);
      expect(await storedRow(b.account.id)).toBeUndefined();
    },
  );

  it.each([
    ['3 digits', '123', pinMessages.format],
    ['5 digits', '25801', pinMessages.format],
    ['letters', '12a4', pinMessages.format],
    ['an empty PIN', '', pinMessages.required],
  ])('refuses %s', async (_label, pin, message) => {
    const b = await business();
    expectValidation(await createPin(b.request, pin), 'pin', message);
  });

  it('refuses two PINs that do not match', async () => {
    const b = await business();
    expectValidation(await createPin(b.request, '2580', '2581'), 'confirmPin', pinMessages.confirm);
    expect(await storedRow(b.account.id)).toBeUndefined();
  });

  it('a second create answers 409 PIN_ALREADY_SET and keeps the first PIN', async () => {
    const b = await businessWithPin('2580');
    const res = await createPin(b.request, '1357');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PIN_ALREADY_SET' });
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it('a user (not a business) gets 403 on every PIN route', async () => {
    const u = await registerAndLogin(t.app, 'user');
    for (const res of [
      await createPin(u.request, '2580'),
      await changePin(u.request, { newPin: '2580', confirmPin: '2580', password: DEFAULT_PASSWORD }),
      await status(u.request),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('signed out gets 401 on every PIN route', async () => {
    for (const method of ['GET', 'POST', 'PUT'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/v1/wallet/pin',
        headers: sameOrigin,
        ...(method === 'GET'
          ? {}
          : { payload: { pin: '2580', confirmPin: '2580', newPin: '2580', currentPin: '1357' } }),
      });
      expect(res.statusCode, `${method} ${res.body}`).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('a cookie-authenticated create from another origin is refused (CSRF)', async () => {
    const b = await business();
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/wallet/pin',
      payload: { pin: '2580', confirmPin: '2580' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect(await storedRow(b.account.id)).toBeUndefined();
  });
});

describe('PUT /api/v1/wallet/pin', () => {
  it('changes the PIN with the current PIN', async () => {
    const b = await businessWithPin('2580');
    const res = await changePin(b.request, { currentPin: '2580', newPin: '1357', confirmPin: '1357' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ set: true, lockedUntil: null, attemptsLeft: 5, resetRequired: false });
    await expect(assertPin(pinDeps(), b.account.id, '1357')).resolves.toBeUndefined();
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_INCORRECT',
    });
  });

  it('changes the PIN with the account password', async () => {
    const b = await businessWithPin('2580');
    const res = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect(assertPin(pinDeps(), b.account.id, '1357')).resolves.toBeUndefined();
  });

  it('a wrong current PIN is 403 PIN_INCORRECT, counts toward the lock-out and changes nothing', async () => {
    const b = await businessWithPin('2580');
    const res = await changePin(b.request, { currentPin: '1470', newPin: '1357', confirmPin: '1357' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'PIN_INCORRECT',
      message: 'Wrong PIN. 4 tries left before withdrawals lock for 15 minutes.',
    });
    expect((await status(b.request)).json()).toMatchObject({ attemptsLeft: 4 });
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it('a wrong password is 403 and changes nothing', async () => {
    const b = await businessWithPin('2580');
    const res = await changePin(b.request, {
      password: 'not-my-password-1',
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'That password is not correct.' });
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it('wrong passwords are rate limited after 5', async () => {
    const b = await businessWithPin('2580');
    for (let i = 0; i < 5; i += 1) {
      const res = await changePin(b.request, {
        password: `wrong-${i}-pass`,
        newPin: '1357',
        confirmPin: '1357',
      });
      expect(res.statusCode, res.body).toBe(403);
    }
    const res = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('checks at most 5 passwords when 40 wrong ones arrive at once', async () => {
    const b = await businessWithPin('2580');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        changePin(b.request, { password: `wrong-${i}-pass`, newPin: '1357', confirmPin: '1357' }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 403)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(35);
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it('needs the current PIN or the password; the new PIN must be strong and typed twice', async () => {
    const b = await businessWithPin('2580');
    expectValidation(
      await changePin(b.request, { newPin: '1357', confirmPin: '1357' }),
      'currentPin',
      'please enter your current PIN or your account password',
    );
    expectValidation(
      await changePin(b.request, { currentPin: '2580', newPin: '1234', confirmPin: '1234' }),
      'newPin',
      pinMessages.weak,
    );
    expectValidation(
      await changePin(b.request, { currentPin: '2580', newPin: '1357', confirmPin: '1358' }),
      'confirmPin',
      pinMessages.confirm,
    );
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
  });

  it('changing before a PIN exists is 400 PIN_REQUIRED', async () => {
    const b = await business();
    const res = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PIN_REQUIRED' });
  });
});

describe('assertPin and the lock-out', () => {
  it('no PIN yet → PIN_REQUIRED', async () => {
    const b = await business();
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_REQUIRED',
      status: 400,
    });
  });

  it('counts down, locks on the 5th wrong PIN for 15 minutes, and refuses even the right PIN while locked', async () => {
    const b = await businessWithPin('2580');
    const results = await wrongTries(b.account.id, 5);
    expect(results.slice(0, 4).map((r) => r.message)).toEqual([
      'Wrong PIN. 4 tries left before withdrawals lock for 15 minutes.',
      'Wrong PIN. 3 tries left before withdrawals lock for 15 minutes.',
      'Wrong PIN. 2 tries left before withdrawals lock for 15 minutes.',
      'Wrong PIN. 1 try left before withdrawals lock for 15 minutes.',
    ]);
    expect(results.slice(0, 4).every((r) => r.code === 'PIN_INCORRECT')).toBe(true);
    expect(results[4]).toMatchObject({
      code: 'PIN_LOCKED',
      message: 'Too many wrong PINs. Withdrawals are locked for another 15 minutes.',
    });
    const retry = results[4]!.details?.retryAfterSeconds as number;
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);

    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_LOCKED',
      status: 423,
    });
    const s = (await status(b.request)).json() as { lockedUntil: string; attemptsLeft: number };
    expect(s.attemptsLeft).toBe(0);
    const left = new Date(s.lockedUntil).getTime() - Date.now();
    expect(left).toBeGreaterThan(14 * 60_000);
    expect(left).toBeLessThanOrEqual(15 * 60_000);

    // Changing with the current PIN is locked too, and answers 423 with Retry-After.
    const res = await changePin(b.request, { currentPin: '2580', newPin: '1357', confirmPin: '1357' });
    expect(res.statusCode, res.body).toBe(423);
    expect(res.json()).toMatchObject({
      code: 'PIN_LOCKED',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('says how many minutes are left', async () => {
    const b = await businessWithPin('2580');
    await t.database.pool.query(
      "UPDATE transaction_pins SET locked_until = now() + interval '3 minutes 30 seconds' WHERE account_id = $1",
      [b.account.id],
    );
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_LOCKED',
      message: 'Too many wrong PINs. Withdrawals are locked for another 4 minutes.',
    });
  });

  it('a lock that has expired is over: the right PIN works and the tries start afresh', async () => {
    const b = await businessWithPin('2580');
    await wrongTries(b.account.id, 5);
    await t.database.pool.query(
      "UPDATE transaction_pins SET locked_until = now() - interval '1 second' WHERE account_id = $1",
      [b.account.id],
    );
    expect((await status(b.request)).json()).toEqual({
      set: true,
      lockedUntil: null,
      attemptsLeft: 5,
      resetRequired: false,
    });
    const [again] = await wrongTries(b.account.id, 1);
    expect(again?.code).toBe('PIN_INCORRECT');
    expect(again?.message).toContain('4 tries left');
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
    const row = await storedRow(b.account.id);
    expect(row).toMatchObject({ failed_attempts: 0, locked_until: null });
  });

  it('a right PIN forgets earlier wrong tries', async () => {
    const b = await businessWithPin('2580');
    await wrongTries(b.account.id, 4);
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
    expect((await status(b.request)).json()).toMatchObject({ attemptsLeft: 5 });
    const [next] = await wrongTries(b.account.id, 1);
    expect(next?.code).toBe('PIN_INCORRECT');
  });

  it('concurrent wrong tries are all counted', async () => {
    const b = await businessWithPin('2580');
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, () => assertPin(pinDeps(), b.account.id, '9999')),
    );
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'PIN_INCORRECT')).toHaveLength(4);
    expect(codes.filter((c) => c === 'PIN_LOCKED')).toHaveLength(3);
    expect((await status(b.request)).json()).toMatchObject({ attemptsLeft: 0 });
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_LOCKED',
    });
  });

  it('changing the PIN with the password lifts a lock', async () => {
    const b = await businessWithPin('2580');
    await wrongTries(b.account.id, 5);
    const res = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ set: true, lockedUntil: null, attemptsLeft: 5, resetRequired: false });
    await expect(assertPin(pinDeps(), b.account.id, '1357')).resolves.toBeUndefined();
  });

  it('one business’s wrong tries never touch another’s PIN', async () => {
    const a = await businessWithPin('2580');
    const other = await businessWithPin('2580');
    await wrongTries(a.account.id, 5);
    await expect(assertPin(pinDeps(), other.account.id, '2580')).resolves.toBeUndefined();
  });
});

describe('how the PIN is stored (issue 14)', () => {
  /** The stored form worked out here on its own: HMAC-SHA256 of "<account id>:<PIN>" under the PIN's own key. */
  function expectedHash(accountId: string, pin: string): string {
    const key = Buffer.from(
      hkdfSync(
        'sha256',
        Buffer.from(t.config.CODE_ENCRYPTION_KEY),
        Buffer.alloc(0),
        'giftmart transaction PIN v1',
        32,
      ),
    );
    return `hmac-sha256$v1$${createHmac('sha256', key).update(`${accountId}:${pin}`).digest('hex')}`;
  }

  /** A PIN set before issue 14: an argon2id hash written straight into the table. */
  async function giveLegacyPin(accountId: string, pin = TEST_PIN): Promise<string> {
    const legacy = await hashPassword(pin);
    await t.database.pool.query('INSERT INTO transaction_pins (account_id, pin_hash) VALUES ($1, $2)', [
      accountId,
      legacy,
    ]);
    return legacy;
  }

  function withdraw(b: { request: Requester }, pin: string) {
    return b.request({ method: 'POST', url: '/api/v1/withdrawals', payload: { amount: 100_000, pin } });
  }

  it('a new or changed PIN is stored as hmac-sha256$v1$ under its own key (not the raw key), never the PIN', async () => {
    const b = await businessWithPin('2580');
    const created = (await storedRow(b.account.id))!.pin_hash;
    expect(created).toBe(expectedHash(b.account.id, '2580'));
    expect(created.split('$')).not.toContain('2580');
    const rawKey = createHmac('sha256', t.config.CODE_ENCRYPTION_KEY)
      .update(`${b.account.id}:2580`)
      .digest('hex');
    expect(created).not.toContain(rawKey);

    const withPin = await changePin(b.request, { currentPin: '2580', newPin: '1357', confirmPin: '1357' });
    expect(withPin.statusCode, withPin.body).toBe(200);
    expect((await storedRow(b.account.id))!.pin_hash).toBe(expectedHash(b.account.id, '1357'));

    const withPassword = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '3691',
      confirmPin: '3691',
    });
    expect(withPassword.statusCode, withPassword.body).toBe(200);
    expect((await storedRow(b.account.id))!.pin_hash).toBe(expectedHash(b.account.id, '3691'));
    await expect(assertPin(pinDeps(), b.account.id, '3691')).resolves.toBeUndefined();
  });

  it('two businesses with the same PIN have different stored hashes', async () => {
    const a = await businessWithPin('2580');
    const b = await businessWithPin('2580');
    const hashA = (await storedRow(a.account.id))!.pin_hash;
    const hashB = (await storedRow(b.account.id))!.pin_hash;
    expect(hashA).toMatch(/^hmac-sha256\$v1\$/);
    expect(hashB).toMatch(/^hmac-sha256\$v1\$/);
    expect(hashA).not.toBe(hashB);
  });

  it('a legacy argon2id PIN pays a withdrawal and is then stored in the HMAC form, which keeps working', async () => {
    const b = await fundedBusiness(t, 500_000n, { pin: false });
    const legacy = await giveLegacyPin(b.id);
    expect(legacy).toMatch(/^\$argon2id\$/);

    const first = await withdraw(b, TEST_PIN);
    expect(first.statusCode, first.body).toBe(201);
    expect(await storedRow(b.id)).toMatchObject({
      pin_hash: expectedHash(b.id, TEST_PIN),
      failed_attempts: 0,
    });

    const second = await withdraw(b, TEST_PIN);
    expect(second.statusCode, second.body).toBe(201);
    const wrong = await withdraw(b, '1357');
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'PIN_INCORRECT' });
  });

  it('a wrong PIN against a legacy hash is refused and counted, and the legacy hash stays', async () => {
    const b = await fundedBusiness(t, 500_000n, { pin: false });
    const legacy = await giveLegacyPin(b.id);

    const res = await withdraw(b, '1357');
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PIN_INCORRECT', details: { attemptsLeft: 4 } });
    const results = await wrongTries(b.id, 4, '9999');
    expect(results.map((r) => r.code)).toEqual([
      'PIN_INCORRECT',
      'PIN_INCORRECT',
      'PIN_INCORRECT',
      'PIN_LOCKED',
    ]);
    expect((await storedRow(b.id))!.pin_hash).toBe(legacy);
    await expect(assertPin(pinDeps(), b.id, TEST_PIN)).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    expect((await storedRow(b.id))!.pin_hash).toBe(legacy);
  });

  it('the move to the HMAC form replaces only the exact old hash, never a PIN changed in the meantime', async () => {
    const b = await businessWithPin('2580');
    const current = (await storedRow(b.account.id))!.pin_hash;
    const staleLegacy = await hashPassword('2580');
    expect(await replacePinHash(t.database.db, b.account.id, staleLegacy, 'hmac-sha256$v1$other')).toBe(
      false,
    );
    expect((await storedRow(b.account.id))!.pin_hash).toBe(current);
    expect(await replacePinHash(t.database.db, b.account.id, current, 'hmac-sha256$v1$other')).toBe(true);
    expect((await storedRow(b.account.id))!.pin_hash).toBe('hmac-sha256$v1$other');
  });
});

describe('repeated lock-outs block the PIN (issue 12, hole 10)', () => {
  /** Ends the current lock as if its 15 minutes had passed. */
  async function expireLock(accountId: string) {
    await t.database.pool.query(
      "UPDATE transaction_pins SET locked_until = now() - interval '1 second' WHERE account_id = $1",
      [accountId],
    );
  }

  /** Five wrong PINs, then the lock they cause is over: one lock-out, as a thief would spend it. */
  async function lockOut(accountId: string) {
    const results = await wrongTries(accountId, 5);
    await expireLock(accountId);
    return results.at(-1)!;
  }

  const alerts = async (accountId: string) =>
    (
      await t.database.pool.query<{ title: string; link: string }>(
        "SELECT title, link FROM notifications WHERE account_id = $1 AND kind = 'security_alert'",
        [accountId],
      )
    ).rows;
  const alertMails = async (accountId: string) =>
    (
      await t.database.pool.query<{ subject: string }>(
        "SELECT subject FROM mail_outbox WHERE account_id = $1 AND kind = 'security_alert'",
        [accountId],
      )
    ).rows.map((r) => r.subject);

  it('the 3rd lock-out in 24 hours blocks every PIN until a new one is set with the password, and tells the owner', async () => {
    const b = await businessWithPin('2580');
    expect((await lockOut(b.account.id)).code).toBe('PIN_LOCKED');
    expect((await lockOut(b.account.id)).code).toBe('PIN_LOCKED');
    expect(await alerts(b.account.id)).toEqual([]);

    const third = await wrongTries(b.account.id, 5);
    expect(third.slice(0, 4).every((r) => r.code === 'PIN_INCORRECT')).toBe(true);
    expect(third[4]).toMatchObject({
      code: 'PIN_RESET_REQUIRED',
      message: expect.stringContaining('Set a new PIN with your account password'),
    });

    // No waiting it out: the right PIN is refused now, and an hour (or a day) later too.
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_RESET_REQUIRED',
      status: 423,
    });
    await expireLock(b.account.id);
    await expect(assertPin(pinDeps(), b.account.id, '2580')).rejects.toMatchObject({
      code: 'PIN_RESET_REQUIRED',
    });
    expect((await status(b.request)).json()).toEqual({
      set: true,
      lockedUntil: null,
      attemptsLeft: 0,
      resetRequired: true,
    });

    expect(await alerts(b.account.id)).toEqual([
      { title: 'Your transaction PIN was blocked', link: '/dashboard/account?tab=security&pin=change' },
    ]);
    expect(await alertMails(b.account.id)).toEqual(['Giftmart: your transaction PIN was blocked']);

    // The old PIN cannot change it, not even alongside the password.
    for (const payload of [
      { currentPin: '2580', newPin: '1357', confirmPin: '1357' },
      { currentPin: '2580', password: DEFAULT_PASSWORD, newPin: '1357', confirmPin: '1357' },
    ]) {
      const res = await changePin(b.request, payload);
      expect(res.statusCode, res.body).toBe(423);
      expect(res.json()).toMatchObject({ code: 'PIN_RESET_REQUIRED' });
    }

    const reset = await changePin(b.request, {
      password: DEFAULT_PASSWORD,
      newPin: '1357',
      confirmPin: '1357',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ set: true, lockedUntil: null, attemptsLeft: 5, resetRequired: false });
    await expect(assertPin(pinDeps(), b.account.id, '1357')).resolves.toBeUndefined();
    // The new PIN starts with a clean history: its first lock-out is an ordinary 15-minute lock.
    expect((await lockOut(b.account.id)).code).toBe('PIN_LOCKED');
    expect(await alerts(b.account.id)).toHaveLength(1);
  });

  it('a right PIN between lock-outs does not forget them', async () => {
    const b = await businessWithPin('2580');
    await lockOut(b.account.id);
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
    await lockOut(b.account.id);
    await expect(assertPin(pinDeps(), b.account.id, '2580')).resolves.toBeUndefined();
    const third = await wrongTries(b.account.id, 5);
    expect(third[4]?.code).toBe('PIN_RESET_REQUIRED');
  });

  it('lock-outs more than 24 hours old do not count', async () => {
    const b = await businessWithPin('2580');
    await lockOut(b.account.id);
    await lockOut(b.account.id);
    await t.database.pool.query(
      "UPDATE transaction_pins SET recent_locks = ARRAY[now() - interval '25 hours', now() - interval '24 hours 1 minute'] WHERE account_id = $1",
      [b.account.id],
    );
    expect((await lockOut(b.account.id)).code).toBe('PIN_LOCKED');
    expect((await lockOut(b.account.id)).code).toBe('PIN_LOCKED');
    expect((await wrongTries(b.account.id, 5))[4]?.code).toBe('PIN_RESET_REQUIRED');
    expect(await alerts(b.account.id)).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('describes every PIN route with its request and response schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const pin = doc.paths['/api/v1/wallet/pin'];
    expect(Object.keys(pin ?? {}).sort()).toEqual(['get', 'post', 'put']);
    expect(pin?.post?.requestBody).toBeDefined();
    expect(pin?.put?.requestBody).toBeDefined();
    expect(Object.keys(pin?.get?.responses ?? {})).toContain('200');
    expect(Object.keys(pin?.post?.responses ?? {})).toEqual(expect.arrayContaining(['201', '409']));
    expect(Object.keys(pin?.put?.responses ?? {})).toEqual(expect.arrayContaining(['200', '403', '423']));
  });
});
