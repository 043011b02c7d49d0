import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { unique } from '../../../../tests/fixtures/factories';
import { makeNuban, NIGERIAN_BANKS } from '../../../shared/wallet/banks';
import type { PayoutProvider } from './payouts/payout-provider';
import { sandboxAccountName, SANDBOX_UNKNOWN_ACCOUNT } from './payouts/sandbox-payouts';

/**
 * Bank accounts (issue 5): the bank list, name resolution through the payout provider, saving a confirmed
 * account, the default, removal (not while a withdrawal is in flight), and who may do what. The provider
 * is a counting fake that names accounts like the sandbox does, so "no provider call" can be checked.
 */
const calls: { bankCode: string; accountNumber: string }[] = [];
/** Names the fake gives instead of the sandbox's, e.g. to model a bank renaming an account. */
const renamed = new Map<string, string>();
let failing = false;

const fakePayouts: PayoutProvider = {
  name: 'sandbox',
  async resolveAccount(bankCode, accountNumber) {
    calls.push({ bankCode, accountNumber });
    if (failing) throw new Error('bank is down');
    if (accountNumber === SANDBOX_UNKNOWN_ACCOUNT) return null;
    return { accountName: renamed.get(accountNumber) ?? sandboxAccountName(accountNumber) };
  },
  transfer: () => Promise.reject(new Error('not used')),
  checkTransfer: () => Promise.reject(new Error('not used')),
  parseWebhook: () => {
    throw new Error('not used');
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { payouts: fakePayouts });
});
afterAll(() => t.close());
beforeEach(() => {
  calls.length = 0;
  failing = false;
});

/** A valid NUBAN for the bank, different on every call. */
function nuban(bankCode = '044'): string {
  const serial = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  const number = makeNuban(bankCode, serial);
  return number === SANDBOX_UNKNOWN_ACCOUNT ? nuban(bankCode) : number;
}

type Session = Awaited<ReturnType<typeof registerAndLogin>>;
type Account = {
  id: string;
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
  isDefault: boolean;
};

const PIN = '2580';

/** A business with its transaction PIN set (adding a bank account or changing the default needs it). */
async function business(options: { pin?: boolean } = {}): Promise<Session> {
  const session = await registerAndLogin(t.app, 'business');
  if (options.pin !== false) {
    const res = await session.request({
      method: 'POST',
      url: '/api/v1/wallet/pin',
      payload: { pin: PIN, confirmPin: PIN },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return session;
}

async function add(session: Session, bankCode = '044', accountNumber = nuban(bankCode)): Promise<Account> {
  const res = await session.request({
    method: 'POST',
    url: '/api/v1/bank-accounts',
    payload: { bankCode, accountNumber, accountName: sandboxAccountName(accountNumber), pin: PIN },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Account;
}

async function list(session: Session): Promise<Account[]> {
  const res = await session.request({ method: 'GET', url: '/api/v1/bank-accounts' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Account[] }).items;
}

/** A check digit one off: the same number with its last digit changed. */
function wrongCheckDigit(number: string): string {
  return `${number.slice(0, 9)}${(Number(number[9]) + 1) % 10}`;
}

describe('GET /api/v1/banks', () => {
  it('lists the Nigerian banks with their codes, without signing in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/banks' });
    expect(res.statusCode).toBe(200);
    const { items } = res.json() as { items: { code: string; name: string }[] };
    expect(items).toHaveLength(NIGERIAN_BANKS.length);
    expect(items).toContainEqual({ code: '058', name: 'Guaranty Trust Bank' });
  });
});

describe('POST /api/v1/bank-accounts/resolve', () => {
  it('returns the name the bank holds for a valid account', async () => {
    const b = await business();
    const number = nuban('058');
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '058', accountNumber: number },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumber: number,
      accountName: sandboxAccountName(number),
    });
    expect(calls).toEqual([{ bankCode: '058', accountNumber: number }]);
  });

  it('refuses a wrong NUBAN check digit with a clear message, before asking the bank', async () => {
    const b = await business();
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '057', accountNumber: wrongCheckDigit(nuban('057')) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'That account number is not valid for Zenith Bank. Check the 10 digits.',
      details: {
        fieldErrors: {
          accountNumber: ['That account number is not valid for Zenith Bank. Check the 10 digits.'],
        },
      },
    });
    expect(calls).toEqual([]);
  });

  it('refuses an unknown bank code and a number that is not 10 digits, before asking the bank', async () => {
    const b = await business();
    const unknown = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '999', accountNumber: nuban('999') },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { bankCode: expect.any(Array) } },
    });
    const short = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '044', accountNumber: '123456789' },
    });
    expect(short.statusCode).toBe(400);
    expect(calls).toEqual([]);
  });

  it('accepts any 10 digits for a bank with a longer code (no check digit), and asks the bank', async () => {
    const b = await business();
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '50211', accountNumber: '1234567890' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      bankName: 'Kuda Bank',
      accountName: sandboxAccountName('1234567890'),
    });
    expect(calls).toHaveLength(1);
  });

  it('says the bank has no such account (422) for the sandbox unknown account', async () => {
    const b = await business();
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '058', accountNumber: SANDBOX_UNKNOWN_ACCOUNT },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'BANK_ACCOUNT_NOT_FOUND',
      message: 'We could not find that account at Guaranty Trust Bank.',
    });
    expect(calls).toHaveLength(1);
  });

  it('answers 502 in words when the bank cannot be reached', async () => {
    const b = await business();
    failing = true;
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts/resolve',
      payload: { bankCode: '044', accountNumber: nuban('044') },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'PAYOUT_PROVIDER_ERROR',
      message: expect.stringContaining('Access Bank'),
    });
  });

  it('asks the bank at most 30 times an hour per business, even when 40 checks arrive at once', async () => {
    const b = await business();
    const before = calls.length;
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        b.request({
          method: 'POST',
          url: '/api/v1/bank-accounts/resolve',
          payload: { bankCode: '044', accountNumber: nuban('044') },
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(calls.length - before).toBe(30);
    expect(answers.find((r) => r.statusCode === 429)!.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('You have checked many bank accounts in a short time.'),
    });
  });

  it('is for businesses only: signed out → 401, a user → 403', async () => {
    const payload = { bankCode: '044', accountNumber: nuban('044') };
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/bank-accounts/resolve', payload });
    expect(anonymous.statusCode).toBe(401);
    const user = await registerAndLogin(t.app, 'user');
    const res = await user.request({ method: 'POST', url: '/api/v1/bank-accounts/resolve', payload });
    expect(res.statusCode).toBe(403);
    expect(calls).toEqual([]);
  });
});

describe('saving bank accounts', () => {
  it('saves a confirmed account; the first becomes the default and GET /wallet reports it', async () => {
    const b = await business();
    const before = await b.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(before.json()).toMatchObject({ defaultBankAccount: null });

    const number = nuban('058');
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: {
        bankCode: '058',
        accountNumber: number,
        accountName: sandboxAccountName(number).toLowerCase(),
        pin: PIN,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json() as Account;
    expect(saved).toMatchObject({
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumber: number,
      accountName: sandboxAccountName(number),
      isDefault: true,
    });
    expect(calls).toHaveLength(1);

    const second = await add(b, '044');
    expect(second.isDefault).toBe(false);

    const wallet = await b.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json()).toMatchObject({ defaultBankAccount: { id: saved.id, isDefault: true } });
    expect((await list(b)).map((a) => [a.id, a.isDefault])).toEqual([
      [saved.id, true],
      [second.id, false],
    ]);
  });

  it('refuses when the name the business confirmed is not the name the bank gives now', async () => {
    const b = await business();
    const number = nuban('033');
    renamed.set(number, 'EMEKA NWOSU');
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: { bankCode: '033', accountNumber: number, accountName: 'ADAEZE OKAFOR', pin: PIN },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'ACCOUNT_NAME_MISMATCH',
      details: { accountName: 'EMEKA NWOSU' },
    });
    expect(await list(b)).toEqual([]);
  });

  it('refuses a wrong check digit and an unknown account without saving', async () => {
    const b = await business();
    const bad = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: {
        bankCode: '011',
        accountNumber: wrongCheckDigit(nuban('011')),
        accountName: 'ADAEZE OKAFOR',
        pin: PIN,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(calls).toEqual([]);
    const unknown = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: {
        bankCode: '058',
        accountNumber: SANDBOX_UNKNOWN_ACCOUNT,
        accountName: 'ADAEZE OKAFOR',
        pin: PIN,
      },
    });
    expect(unknown.statusCode).toBe(422);
    expect(await list(b)).toEqual([]);
  });

  it('refuses the same live account twice (409); another business may add the same number', async () => {
    const b = await business();
    const number = nuban('057');
    await add(b, '057', number);
    const again = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: { bankCode: '057', accountNumber: number, accountName: sandboxAccountName(number), pin: PIN },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'BANK_ACCOUNT_EXISTS' });
    expect(await list(b)).toHaveLength(1);
    const other = await business();
    await add(other, '057', number);
  });

  it('two concurrent first accounts still leave exactly one default', async () => {
    const b = await business();
    const results = await Promise.all(
      ['044', '058', '057'].map((code) => {
        const number = nuban(code);
        return b.request({
          method: 'POST',
          url: '/api/v1/bank-accounts',
          payload: {
            bankCode: code,
            accountNumber: number,
            accountName: sandboxAccountName(number),
            pin: PIN,
          },
        });
      }),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect((await list(b)).filter((a) => a.isDefault)).toHaveLength(1);
  });

  it('is for businesses only: a user → 403, signed out → 401', async () => {
    const user = await registerAndLogin(t.app, 'user');
    expect((await user.request({ method: 'GET', url: '/api/v1/bank-accounts' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/bank-accounts' })).statusCode).toBe(401);
  });

  it('refuses a cookie-authenticated change from another origin', async () => {
    const b = await business();
    const number = nuban('044');
    const res = await b.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: { bankCode: '044', accountNumber: number, accountName: sandboxAccountName(number), pin: PIN },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_REJECTED' });
  });
});

describe('default and removal', () => {
  it('makes another account the default: the old one becomes an other account', async () => {
    const b = await business();
    const first = await add(b);
    const second = await add(b, '058');
    const res = await b.request({
      method: 'PATCH',
      url: `/api/v1/bank-accounts/${second.id}/default`,
      payload: { pin: PIN },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: second.id, isDefault: true });
    expect((await list(b)).map((a) => [a.id, a.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    const wallet = await b.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json()).toMatchObject({ defaultBankAccount: { id: second.id } });
  });

  it('removes an account; removing the default leaves no default until one is chosen', async () => {
    const b = await business();
    const first = await add(b);
    const second = await add(b, '058');
    const other = await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${second.id}` });
    expect(other.statusCode, other.body).toBe(204);
    expect((await list(b)).map((a) => a.id)).toEqual([first.id]);

    const third = await add(b, '033');
    const res = await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${first.id}` });
    expect(res.statusCode).toBe(204);
    expect(await list(b)).toMatchObject([{ id: third.id, isDefault: false }]);
    const wallet = await b.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(wallet.json()).toMatchObject({ defaultBankAccount: null });

    const again = await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${first.id}` });
    expect(again.statusCode).toBe(404);
    const gone = await b.request({
      method: 'PATCH',
      url: `/api/v1/bank-accounts/${first.id}/default`,
      payload: { pin: PIN },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('a removed account can be added again, and becomes the default when there is none', async () => {
    const b = await business();
    const first = await add(b);
    expect((await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${first.id}` })).statusCode).toBe(
      204,
    );
    const back = await add(b, first.bankCode, first.accountNumber);
    expect(back).toMatchObject({ isDefault: true });
    expect(back.id).not.toBe(first.id);
  });

  it('refuses to remove an account while a withdrawal to it is requested or processing', async () => {
    const b = await business();
    const account = await add(b);
    const insert = (status: string) =>
      t.database.pool.query<{ id: string }>(
        `INSERT INTO withdrawals (business_id, bank_account_id, amount, currency, status, reference)
         VALUES ($1, $2, 100000, 'NGN', $3, $4) RETURNING id`,
        [b.account.id, account.id, status, unique('wd_test_')],
      );
    await insert('paid');
    const { rows } = await insert('requested');
    const blocked = await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({
      code: 'BANK_ACCOUNT_IN_USE',
      message: expect.stringContaining('withdrawal'),
    });

    await t.database.pool.query(`UPDATE withdrawals SET status = 'processing' WHERE id = $1`, [rows[0]!.id]);
    expect(
      (await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` })).statusCode,
    ).toBe(409);

    await t.database.pool.query(`UPDATE withdrawals SET status = 'failed' WHERE id = $1`, [rows[0]!.id]);
    expect(
      (await b.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` })).statusCode,
    ).toBe(204);
  });

  it("another business's account id is not found (404) for default and removal, and stays as it was", async () => {
    const owner = await business();
    const account = await add(owner);
    const stranger = await business();
    const patch = await stranger.request({
      method: 'PATCH',
      url: `/api/v1/bank-accounts/${account.id}/default`,
      payload: { pin: PIN },
    });
    expect(patch.statusCode).toBe(404);
    const del = await stranger.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` });
    expect(del.statusCode).toBe(404);
    expect(await list(stranger)).toEqual([]);
    expect(await list(owner)).toMatchObject([{ id: account.id, isDefault: true }]);
  });

  it('a user gets 403 and a signed-out caller 401 for default and removal; a bad id is 400', async () => {
    const owner = await business();
    const account = await add(owner);
    const user = await registerAndLogin(t.app, 'user');
    expect(
      (await user.request({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` })).statusCode,
    ).toBe(403);
    expect(
      (
        await user.request({
          method: 'PATCH',
          url: `/api/v1/bank-accounts/${account.id}/default`,
          payload: { pin: PIN },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/bank-accounts/${account.id}` })).statusCode,
    ).toBe(401);
    expect(
      (await owner.request({ method: 'DELETE', url: '/api/v1/bank-accounts/not-a-uuid' })).statusCode,
    ).toBe(400);
    expect(await list(owner)).toHaveLength(1);
  });
});

describe('the transaction PIN guards where payouts go, and the owner is told', () => {
  const notes = async (session: Session) =>
    (
      await t.database.pool.query<{ title: string; body: string }>(
        `SELECT title, body FROM notifications WHERE account_id = $1 AND kind = 'bank_account_changed' ORDER BY created_at`,
        [session.account.id],
      )
    ).rows;
  const mails = async (session: Session) =>
    (
      await t.database.pool.query<{ subject: string }>(
        `SELECT subject FROM mail_outbox WHERE account_id = $1 AND kind = 'bank_account_changed' ORDER BY created_at`,
        [session.account.id],
      )
    ).rows.map((r) => r.subject);
  const post = (session: Session, pin?: string, code = '044', number = nuban(code)) =>
    session.request({
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: { bankCode: code, accountNumber: number, accountName: sandboxAccountName(number), pin },
    });

  it('adding needs the PIN: none sent → 400, no PIN set → PIN_REQUIRED, wrong → 403 counted; the bank is not asked', async () => {
    const b = await business();
    const missing = await post(b);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ details: { fieldErrors: { pin: [expect.any(String)] } } });
    const wrong = await post(b, '1111');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'PIN_INCORRECT', details: { attemptsLeft: 4 } });
    const noPin = await post(await business({ pin: false }), PIN);
    expect(noPin.statusCode).toBe(400);
    expect(noPin.json()).toMatchObject({ code: 'PIN_REQUIRED' });
    expect(calls).toEqual([]);
    expect(await list(b)).toEqual([]);
    const status = await b.request({ method: 'GET', url: '/api/v1/wallet/pin' });
    expect(status.json()).toMatchObject({ attemptsLeft: 4 });
  });

  it('wrong PINs here and in withdrawals share one count: the fifth locks both (423), even with the right PIN', async () => {
    const b = await business();
    const first = await add(b);
    for (let i = 0; i < 3; i += 1) expect((await post(b, '1111')).statusCode).toBe(403);
    const withdrawal = await b.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 100_000, pin: '1111' },
    });
    expect(withdrawal.json()).toMatchObject({ code: 'PIN_INCORRECT', details: { attemptsLeft: 1 } });
    const fifth = await post(b, '1111');
    expect(fifth.statusCode).toBe(423);
    const locked = await post(b, PIN);
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({ code: 'PIN_LOCKED' });
    expect(await list(b)).toEqual([first]);
  });

  it('making an account the default needs the PIN; a wrong one changes nothing', async () => {
    const b = await business();
    const first = await add(b);
    const second = await add(b, '058');
    const url = `/api/v1/bank-accounts/${second.id}/default`;
    expect((await b.request({ method: 'PATCH', url })).statusCode).toBe(400);
    const wrong = await b.request({ method: 'PATCH', url, payload: { pin: '1111' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'PIN_INCORRECT' });
    expect((await list(b)).find((a) => a.isDefault)?.id).toBe(first.id);
    expect((await b.request({ method: 'PATCH', url, payload: { pin: PIN } })).statusCode).toBe(200);
    expect((await list(b)).find((a) => a.isDefault)?.id).toBe(second.id);
  });

  it('tells the owner by notification and e-mail when an account is added or made the default', async () => {
    const b = await business();
    const first = await add(b, '058');
    const second = await add(b, '044');
    const res = await b.request({
      method: 'PATCH',
      url: `/api/v1/bank-accounts/${second.id}/default`,
      payload: { pin: PIN },
    });
    expect(res.statusCode).toBe(200);
    const last4 = (a: Account) => a.accountNumber.slice(-4);
    expect(await notes(b)).toEqual([
      {
        title: 'A bank account was added and made your default',
        body: `A bank account was added and made your default: Guaranty Trust Bank ••••${last4(first)}.`,
      },
      {
        title: 'A bank account was added',
        body: `A bank account was added: ${second.bankName} ••••${last4(second)}.`,
      },
      {
        title: 'A bank account was made your default',
        body: `A bank account was made your default: ${second.bankName} ••••${last4(second)}.`,
      },
    ]);
    expect(await mails(b)).toHaveLength(3);
    // Making the default the default again changes nothing and tells nobody.
    await b.request({
      method: 'PATCH',
      url: `/api/v1/bank-accounts/${second.id}/default`,
      payload: { pin: PIN },
    });
    expect(await notes(b)).toHaveLength(3);
  });

  it('a PIN blocked by repeated lock-outs refuses adding, the default and withdrawals (423 PIN_RESET_REQUIRED)', async () => {
    const b = await business();
    const first = await add(b);
    const second = await add(b, '058');
    // As if the third lock-out in 24 hours had just happened (pin.test.ts drives that through wrong PINs).
    await t.database.pool.query(
      'UPDATE transaction_pins SET reset_required_at = now() WHERE account_id = $1',
      [b.account.id],
    );
    const answers = [
      await post(b, PIN, '033'),
      await b.request({
        method: 'PATCH',
        url: `/api/v1/bank-accounts/${second.id}/default`,
        payload: { pin: PIN },
      }),
      await b.request({ method: 'POST', url: '/api/v1/withdrawals', payload: { amount: 100_000, pin: PIN } }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(423);
      expect(res.json()).toMatchObject({
        code: 'PIN_RESET_REQUIRED',
        message: expect.stringContaining('account password'),
      });
    }
    expect((await list(b)).map((a) => [a.id, a.isDefault])).toEqual([
      [first.id, true],
      [second.id, false],
    ]);
    expect(calls.filter((c) => c.bankCode === '033')).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the bank account routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    if (res.statusCode !== 200) throw new Error(`no OpenAPI document at /api/docs/json: ${res.statusCode}`);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const path of [
      '/api/v1/banks',
      '/api/v1/bank-accounts',
      '/api/v1/bank-accounts/resolve',
      '/api/v1/bank-accounts/{id}/default',
      '/api/v1/bank-accounts/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
