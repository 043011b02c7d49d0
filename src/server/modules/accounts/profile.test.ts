import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDeletion } from '../../../shared/accounts/profile';
import type { Account } from '../../../shared/accounts/schemas';
import { buyCard, createDesign } from '../../../../tests/fixtures/cards';
import { DEFAULT_PASSWORD, phoneNumber, unique } from '../../../../tests/fixtures/factories';
import { heldCard, mailsTo, sentGift, usernameOf } from '../../../../tests/fixtures/gifts';
import {
  createTestApp,
  freshIp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';
import { fundedBusiness, TEST_PIN } from '../../../../tests/fixtures/wallet';
import { GIVEN_UP_REFERENCE } from '../cards/account-deletion.service';

/**
 * The signed-in account's own profile over /api/v1/account (issue 12): editing it, changing its e-mail by a
 * mailed link, and deleting it, on the real PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof registerAndLogin>>;
const user = () => registerAndLogin(t.app, 'user');
const business = () => registerAndLogin(t.app, 'business');
const email = () => `new-${unique()}@example.test`;
const query = async <T extends object>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query<T & Record<string, unknown>>(text, values)).rows;

function patch(who: Signed, payload: unknown) {
  return who.request({ method: 'PATCH', url: '/api/v1/account', payload: payload as object });
}
function askEmailChange(who: Signed, payload: unknown) {
  return who.request({
    method: 'POST',
    url: '/api/v1/account/email-change',
    payload: payload as object,
    remoteAddress: freshIp(),
  });
}
function confirm(token: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/account/email-change/confirm',
    payload: { token },
    headers: sameOrigin,
  });
}
function deletion(who: Signed) {
  return who.request({ method: 'GET', url: '/api/v1/account/deletion' });
}
function remove(who: Signed, payload: unknown = { password: DEFAULT_PASSWORD }) {
  return who.request({
    method: 'DELETE',
    url: '/api/v1/account',
    payload: payload as object,
    remoteAddress: freshIp(),
  });
}
async function linkToken(address: string): Promise<string> {
  const path = (await mailsTo(t, address, 'email_change')).at(-1)?.content.action?.path;
  if (!path) throw new Error(`no confirmation link mailed to ${address}`);
  expect(path).toMatch(/^\/confirm-email#token=[A-Za-z0-9_-]{43}$/);
  return path.split('#token=')[1]!;
}
function login(identifier: string, password = DEFAULT_PASSWORD) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: identifier, password },
    remoteAddress: freshIp(),
  });
}

describe('GET and PATCH /api/v1/account', () => {
  it('answers the caller’s own profile and nobody else’s; no session is 401', async () => {
    const [a, b] = [await user(), await user()];
    const res = await a.request({ method: 'GET', url: '/api/v1/account' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.account.id, email: a.input.email, role: 'user' });
    expect(res.body).not.toContain('password');
    expect(res.body).not.toContain(b.account.id);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/account' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    const anonymousPatch = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/account',
      payload: { name: 'X' },
      headers: sameOrigin,
    });
    expect(anonymousPatch.statusCode).toBe(401);
  });

  it('edits a user’s name, phone and username with registration’s rules, and touches no other account', async () => {
    const [a, b] = [await user(), await user()];
    const username = `new_${unique().slice(0, 12)}`.toLowerCase();
    const res = await patch(a, { name: '  Ada Obi ', phoneNumber: '0803 123 4567', username });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: a.account.id,
      name: 'Ada Obi',
      phoneNumber: '+2348031234567',
      username,
    });
    const again = await a.request({ method: 'GET', url: '/api/v1/account' });
    expect((again.json() as Account).username).toBe(username);
    const other = (await b.request({ method: 'GET', url: '/api/v1/account' })).json() as Account;
    expect(other.name).toBe(b.input.name);
    // The new username signs in; the old one no longer does.
    expect((await login(username)).statusCode).toBe(200);
    expect((await login(usernameOf(a))).statusCode).toBe(401);
  });

  it('refuses bad fields with 400 and the field named, NUL characters included', async () => {
    const a = await user();
    for (const payload of [
      {},
      { name: '' },
      { name: 'a\u0000b' },
      { phoneNumber: '12' },
      { phoneNumber: '0803\u00001234567' },
      { username: 'no spaces here' },
      { username: 'ab\u0000cd' },
      { name: 'x'.repeat(10_000) },
      { name: 42 },
      { email: 'other@example.test' },
      { id: '00000000-0000-0000-0000-000000000000' },
    ]) {
      const res = await patch(a, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    const unchanged = (await a.request({ method: 'GET', url: '/api/v1/account' })).json() as Account;
    expect(unchanged.name).toBe(a.input.name);
  });

  it('a taken username is 409 USERNAME_TAKEN (any case), even 20 racing for one', async () => {
    const [a, b] = [await user(), await user()];
    const res = await patch(a, { username: usernameOf(b).toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'USERNAME_TAKEN',
      details: { fieldErrors: { username: [expect.any(String)] } },
    });
    const racers = await Promise.all(Array.from({ length: 20 }, () => user()));
    const wanted = `race_${unique().slice(0, 10)}`.toLowerCase();
    const answers = await Promise.all(racers.map((r) => patch(r, { username: wanted })));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(19);
  });

  it('a business edits its name and phone; a taken business name is 409, a username 400', async () => {
    const [a, b] = [await business(), await business()];
    const name = `Renamed ${unique()}`;
    const res = await patch(a, { name, phoneNumber: phoneNumber() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name, role: 'business', username: null });
    const taken = await patch(a, { name: b.input.name.toLowerCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'BUSINESS_NAME_TAKEN',
      details: { fieldErrors: { name: [expect.any(String)] } },
    });
    const withUsername = await patch(a, { username: 'abusiness' });
    expect(withUsername.statusCode).toBe(400);
    expect(withUsername.json().details.fieldErrors.username).toBeDefined();
    // A user may share a business's name (the name is unique among businesses only).
    expect((await patch(await user(), { name: b.input.name })).statusCode).toBe(200);
  });
});

describe('changing the e-mail address', () => {
  it('mails a link to the new address, tells the old one, and changes nothing until it is opened', async () => {
    const a = await user();
    const newEmail = email();
    const res = await askEmailChange(a, { newEmail: newEmail.toUpperCase(), password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().message).toBe(`We sent a link to ${newEmail}. Your e-mail changes when you open it.`);
    const token = await linkToken(newEmail);
    const stored = await query<{ token_hash: string; expires_at: Date; new_email: string }>(
      "SELECT token_hash, expires_at, new_email FROM account_tokens WHERE account_id = $1 AND purpose = 'email_change'",
      [a.account.id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const hours = (stored[0]!.expires_at.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const notice = await mailsTo(t, a.input.email, 'security_alert');
    expect(notice.at(-1)!.content.paragraphs.join(' ')).toContain(newEmail);
    expect(((await a.request({ method: 'GET', url: '/api/v1/account' })).json() as Account).email).toBe(
      a.input.email,
    );

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: newEmail });
    expect(((await a.request({ method: 'GET', url: '/api/v1/account' })).json() as Account).email).toBe(
      newEmail,
    );
    const told = await mailsTo(t, a.input.email, 'security_alert');
    expect(told.at(-1)!.subject).toBe('Your Giftmart e-mail address changed');
    expect((await login(newEmail)).statusCode).toBe(200);
    expect((await login(a.input.email)).statusCode).toBe(401);
    // Used once: the same link again is refused.
    expect((await confirm(token)).json().code).toBe('EMAIL_LINK_INVALID');
  });

  it('a wrong password is 401 and counts as a failed login; the limit then refuses', async () => {
    const a = await user();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => askEmailChange(a, { newEmail: email(), password: 'wrong-password' })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(codes.filter((c) => c === 429)).toHaveLength(12 - t.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(answers.find((r) => r.statusCode === 401)!.json().code).toBe('INVALID_CREDENTIALS');
    // The login budget is the same one: the right password now waits too.
    expect((await login(a.input.email)).statusCode).toBe(429);
    expect(await mailsTo(t, a.input.email, 'security_alert')).toHaveLength(0);
  });

  it('an address another account has is 409 EMAIL_TAKEN; own address and bad input are 400; no session 401', async () => {
    const [a, b] = [await user(), await business()];
    const taken = await askEmailChange(a, { newEmail: b.input.email, password: DEFAULT_PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      details: { fieldErrors: { newEmail: [expect.any(String)] } },
    });
    const same = await askEmailChange(a, { newEmail: a.input.email, password: DEFAULT_PASSWORD });
    expect(same.statusCode).toBe(400);
    for (const payload of [
      {},
      { newEmail: 'not-an-address', password: DEFAULT_PASSWORD },
      { newEmail: `a\u0000${email()}`, password: DEFAULT_PASSWORD },
      { newEmail: email() },
      { newEmail: email(), password: 'x'.repeat(5000) },
      { newEmail: ['x@example.test'], password: DEFAULT_PASSWORD },
    ]) {
      const res = await askEmailChange(a, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/email-change',
      payload: { newEmail: email(), password: DEFAULT_PASSWORD },
      headers: sameOrigin,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a newer request ends the older link', async () => {
    const a = await user();
    const [first, second] = [email(), email()];
    expect((await askEmailChange(a, { newEmail: first, password: DEFAULT_PASSWORD })).statusCode).toBe(202);
    const oldToken = await linkToken(first);
    expect((await askEmailChange(a, { newEmail: second, password: DEFAULT_PASSWORD })).statusCode).toBe(202);
    expect((await confirm(oldToken)).statusCode).toBe(400);
    expect((await confirm(await linkToken(second))).json()).toEqual({ email: second });
  });

  it('unknown, malformed, expired and NUL tokens are 400 EMAIL_LINK_INVALID or VALIDATION_FAILED', async () => {
    expect((await confirm('A'.repeat(43))).json().code).toBe('EMAIL_LINK_INVALID');
    for (const bad of ['', 'a\u0000b', 'x'.repeat(5000), 42, null]) {
      const res = await confirm(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const a = await user();
    const newEmail = email();
    await askEmailChange(a, { newEmail, password: DEFAULT_PASSWORD });
    const token = await linkToken(newEmail);
    await query("UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", [
      a.account.id,
    ]);
    const expired = await confirm(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('EMAIL_LINK_INVALID');
  });

  it('twenty confirmations of one link at once: one succeeds', async () => {
    const a = await user();
    const newEmail = email();
    await askEmailChange(a, { newEmail, password: DEFAULT_PASSWORD });
    const token = await linkToken(newEmail);
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(token)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(19);
    expect(await mailsTo(t, a.input.email, 'security_alert')).toHaveLength(2);
  });

  it('an address taken between the request and the link is 409 EMAIL_TAKEN, not a 500', async () => {
    const a = await user();
    const newEmail = email();
    await askEmailChange(a, { newEmail, password: DEFAULT_PASSWORD });
    const token = await linkToken(newEmail);
    await registerAndLogin(t.app, 'business', { email: newEmail });
    const res = await confirm(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('EMAIL_TAKEN');
    expect(((await a.request({ method: 'GET', url: '/api/v1/account' })).json() as Account).email).toBe(
      a.input.email,
    );
  });
});

async function ledgerUnbalanced() {
  return query('SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount) <> 0');
}

describe('deleting an account', () => {
  it('a user without cards is deleted: anonymised, signed out everywhere, and cannot log in', async () => {
    const a = await user();
    const second = await login(a.input.email);
    const secondCookie = second.cookies.find((c) => c.name === 'giftmart_session')!.value;
    const status = await deletion(a);
    expect(status.json()).toEqual({
      canDelete: true,
      blockers: [],
      cardsToGiveUp: { count: 0, total: 0, currency: 'NGN' },
    } satisfies AccountDeletion);

    const res = await remove(a);
    expect(res.statusCode, res.body).toBe(204);
    const cleared = res.cookies.find((c) => c.name === 'giftmart_session');
    expect(cleared?.value).toBe('');
    // This session and the other device's are over.
    expect((await a.request({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(401);
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/session',
      headers: { cookie: `giftmart_session=${secondCookie}` },
    });
    expect(other.statusCode).toBe(401);
    // Login answers as for an unknown account, by e-mail and by username.
    const byEmail = await login(a.input.email);
    const unknown = await login(`nobody-${unique()}@example.test`);
    expect(byEmail.statusCode).toBe(401);
    expect(byEmail.json()).toEqual(unknown.json());
    expect((await login(usernameOf(a))).statusCode).toBe(401);

    const [row] = await query<{
      name: string;
      email: string;
      phone: string;
      username: string;
      deleted_at: Date;
    }>('SELECT name, email, phone, username, deleted_at FROM accounts WHERE id = $1', [a.account.id]);
    expect(row).toMatchObject({
      name: 'Deleted account',
      email: `deleted+${a.account.id}@deleted.invalid`,
      phone: '',
      username: `deleted-${a.account.id.replaceAll('-', '')}`,
    });
    expect(row!.deleted_at).toBeInstanceOf(Date);
    expect(await query('SELECT 1 FROM notifications WHERE account_id = $1', [a.account.id])).toHaveLength(0);
    expect(await mailsTo(t, a.input.email)).toHaveLength(0);
    expect(await query('SELECT 1 FROM account_tokens WHERE account_id = $1', [a.account.id])).toHaveLength(0);
    expect(
      await query('SELECT 1 FROM sessions WHERE account_id = $1 AND revoked_at IS NULL', [a.account.id]),
    ).toHaveLength(0);
  });

  it('a wrong password is 401 and counts against the login limit; no session is 401; bad input 400', async () => {
    const a = await user();
    const wrong = await remove(a, { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const [limit] = await query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1', [
      `login:account:${a.account.id}`,
    ]);
    expect(limit!.hits).toBe(1);
    for (const payload of [
      {},
      { password: 'a\u0000b' },
      { password: DEFAULT_PASSWORD, giveUpCards: 'yes' },
    ]) {
      const res = await remove(a, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/account',
      payload: { password: DEFAULT_PASSWORD },
      headers: sameOrigin,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await a.request({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(200);
  });

  it('twenty deletions at once: one 204, the rest errors, never a 5xx', async () => {
    const a = await user();
    const answers = await Promise.all(Array.from({ length: 20 }, () => remove(a)));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 204)).toHaveLength(1);
    expect(codes.every((c) => c === 204 || c === 401 || c === 429)).toBe(true);
    const two = await user();
    const pair = await Promise.all([remove(two), remove(two)]);
    expect(pair.map((r) => r.statusCode).sort()).toEqual([204, 401]);
  });

  it('a user with cards is refused with the total, then gives them up: void activities, ledger untouched', async () => {
    const { seller, sender: holder, card } = await heldCard(t, 1_500_000);
    const design = await createDesign(seller, 3_000_000);
    const second = await buyCard(t, holder, design);
    const redeemed = await seller.request({
      method: 'POST',
      url: '/api/v1/redemptions',
      payload: { code: card.code, amount: 500_000 },
      remoteAddress: freshIp(),
    });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    const status = (await deletion(holder)).json() as AccountDeletion;
    expect(status).toEqual({
      canDelete: true,
      blockers: [],
      cardsToGiveUp: { count: 2, total: 4_000_000, currency: 'NGN' },
    });
    const entriesBefore = await query('SELECT id FROM journal_entries ORDER BY id');
    const refused = await remove(holder);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_HAS_CARDS',
      message:
        "You still have 2 cards worth ₦40,000.00. Use them, send them, or tick 'give them up' to delete anyway.",
      details: { count: 2, total: { amount: 4_000_000, currency: 'NGN' } },
    });
    expect((await holder.request({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(200);

    const res = await remove(holder, { password: DEFAULT_PASSWORD, giveUpCards: true });
    expect(res.statusCode, res.body).toBe(204);
    for (const id of [card.id, second.id]) {
      const [row] = await query<{ balance: string; status: string; owner_id: string }>(
        'SELECT balance, status, owner_id FROM purchased_cards WHERE id = $1',
        [id],
      );
      expect(row).toMatchObject({ balance: '0', status: 'void', owner_id: holder.account.id });
      const activities = await query<{
        kind: string;
        amount: string;
        balance_after: string;
        reference: string;
      }>(
        'SELECT kind, amount, balance_after, reference FROM card_activities WHERE purchased_card_id = $1 ORDER BY created_at',
        [id],
      );
      // Given up once, as its last activity (a card is its own issue, ADR 039: no issue activity first).
      expect(activities.filter((a) => a.kind === 'void')).toHaveLength(1);
      expect(activities.at(-1)).toMatchObject({
        kind: 'void',
        balance_after: '0',
        reference: GIVEN_UP_REFERENCE,
      });
    }
    const [firstHistory] = await query<{ kinds: string[] }>(
      'SELECT array_agg(kind::text ORDER BY created_at) AS kinds FROM card_activities WHERE purchased_card_id = $1',
      [card.id],
    );
    expect(firstHistory!.kinds).toEqual(['redeem', 'void']);
    // Money records stay: every journal entry is still there and balances; the orders remain.
    const entriesAfter = await query('SELECT id FROM journal_entries ORDER BY id');
    expect(entriesAfter.length).toBeGreaterThanOrEqual(entriesBefore.length);
    expect(entriesAfter).toEqual(expect.arrayContaining(entriesBefore));
    expect(await ledgerUnbalanced()).toEqual([]);
    expect(await query('SELECT 1 FROM orders WHERE buyer_id = $1', [holder.account.id])).toHaveLength(2);
    // The business still sees its sold card, at 0, with its history.
    const sold = await seller.request({ method: 'GET', url: `/api/v1/sold-cards/${card.id}` });
    expect(sold.statusCode, sold.body).toBe(200);
  });

  it('a user with a gift on its way is refused until it ends', async () => {
    const { sender, card } = await heldCard(t);
    const gift = await sentGift(sender, card.id, { recipient: `friend-${unique()}@example.test` });
    const status = (await deletion(sender)).json() as AccountDeletion;
    expect(status.canDelete).toBe(false);
    expect(status.blockers).toEqual([
      expect.objectContaining({
        code: 'GIFT_IN_PROGRESS',
        count: 1,
        amount: { amount: 1_000_000, currency: 'NGN' },
      }),
    ]);
    const refused = await remove(sender, { password: DEFAULT_PASSWORD, giveUpCards: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_DELETION_BLOCKED',
      details: { blockers: status.blockers },
    });
    expect(refused.json().message).toContain('gift');
    const cancelled = await sender.request({
      method: 'POST',
      url: `/api/v1/gifts/${gift.id}/cancel`,
      payload: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await remove(sender, { password: DEFAULT_PASSWORD, giveUpCards: true })).statusCode).toBe(204);
  });

  it('a business is refused while its wallet holds money, with the amount in words', async () => {
    const b = await fundedBusiness(t, 1_200_000n);
    const status = (await deletion(b)).json() as AccountDeletion;
    expect(status).toEqual({
      canDelete: false,
      blockers: [
        {
          code: 'WALLET_HAS_MONEY',
          message: 'Your wallet still holds ₦12,000.00. Withdraw it first.',
          amount: { amount: 1_200_000, currency: 'NGN' },
        },
      ],
      cardsToGiveUp: { count: 0, total: 0, currency: 'NGN' },
    });
    const refused = await remove(b);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ACCOUNT_DELETION_BLOCKED');
    expect(refused.json().message).toContain('Your wallet still holds ₦12,000.00. Withdraw it first.');
  });

  it('a business is refused while a withdrawal is in flight', async () => {
    const b = await fundedBusiness(t, 300_000n);
    const withdrawn = await b.request({
      method: 'POST',
      url: '/api/v1/withdrawals',
      payload: { amount: 300_000, pin: TEST_PIN },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    const status = (await deletion(b)).json() as AccountDeletion;
    expect(status.blockers).toEqual([
      expect.objectContaining({
        code: 'WITHDRAWAL_IN_FLIGHT',
        count: 1,
        amount: { amount: 300_000, currency: 'NGN' },
      }),
    ]);
    expect((await remove(b)).statusCode).toBe(409);
  });

  it('a business is refused while sold cards hold a balance, and deleted once nothing is owed', async () => {
    const { seller, card } = await heldCard(t, 700_000);
    const status = (await deletion(seller)).json() as AccountDeletion;
    expect(status.blockers.map((b) => b.code).sort()).toEqual([
      'SOLD_CARDS_HAVE_BALANCE',
      'WALLET_HAS_MONEY',
    ]);
    expect(status.blockers.find((b) => b.code === 'SOLD_CARDS_HAVE_BALANCE')).toMatchObject({
      count: 1,
      amount: { amount: 700_000, currency: 'NGN' },
      message: expect.stringContaining('1 card you sold still holds ₦7,000.00'),
    });
    expect((await remove(seller)).statusCode).toBe(409);
    expect(card.id).toBeTruthy();

    // A business that owes nothing: its designs leave the catalogue, its PIN and bank accounts go.
    const clean = { ...(await business()), id: '' };
    clean.id = clean.account.id;
    const pin = await clean.request({
      method: 'POST',
      url: '/api/v1/wallet/pin',
      payload: { pin: TEST_PIN, confirmPin: TEST_PIN },
    });
    expect(pin.statusCode, pin.body).toBe(201);
    await query(
      `INSERT INTO bank_accounts (business_id, bank_code, bank_name, account_number, account_name, is_default)
       VALUES ($1, '058', 'Guaranty Trust Bank', '0123456789', 'TEST HOLDER', true)`,
      [clean.id],
    );
    const design = await createDesign(clean, 100_000);
    const res = await remove(clean);
    expect(res.statusCode, res.body).toBe(204);
    const [row] = await query<{
      name: string;
      email: string;
      logo_key: string | null;
      username: string | null;
    }>('SELECT name, email, logo_key, username FROM accounts WHERE id = $1', [clean.id]);
    expect(row!.name).toBe(`Deleted business ${clean.id.replaceAll('-', '').slice(0, 12)}`);
    expect(row!.email).toBe(`deleted+${clean.id}@deleted.invalid`);
    expect(row!.username).toBeNull();
    const [onSale] = await query<{ on_sale: boolean }>('SELECT on_sale FROM gift_cards WHERE id = $1', [
      design.id,
    ]);
    expect(onSale!.on_sale).toBe(false);
    expect(await query('SELECT 1 FROM transaction_pins WHERE account_id = $1', [clean.id])).toHaveLength(0);
    expect(await query('SELECT 1 FROM bank_accounts WHERE business_id = $1', [clean.id])).toHaveLength(0);
    const catalogue = await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${design.id}` });
    expect(catalogue.json().onSale ?? false).toBe(false);
    expect((await login(clean.input.email)).statusCode).toBe(401);
  });

  it('another business that took the derived name first cannot stop a business leaving', async () => {
    const [victim, squatter] = [await business(), await business()];
    const derived = `Deleted business ${victim.account.id.replaceAll('-', '').slice(0, 12)}`;
    expect((await patch(squatter, { name: derived })).statusCode).toBe(200);
    const res = await remove(victim);
    expect(res.statusCode, res.body).toBe(204);
    const [row] = await query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [
      victim.account.id,
    ]);
    expect(row!.name).toMatch(/^Deleted business [0-9a-f]{32}-/);
    // `.invalid` addresses (the anonymous ones) cannot be asked for.
    const squat = await askEmailChange(await user(), {
      newEmail: `deleted+${victim.account.id}@deleted.invalid`,
      password: DEFAULT_PASSWORD,
    });
    expect(squat.statusCode).toBe(400);
  });

  it('a cookie deletion from another site is refused (CSRF); an API client deletes with its Bearer token', async () => {
    const a = await user();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/account',
      payload: { password: DEFAULT_PASSWORD },
      headers: { cookie: a.cookie, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('CSRF_REJECTED');
    const textBody = await a.request({
      method: 'DELETE',
      url: '/api/v1/account',
      payload: 'password=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(textBody.statusCode).toBeGreaterThanOrEqual(400);
    expect(textBody.statusCode).toBeLessThan(500);
    expect(textBody.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });

    const token = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/tokens',
      payload: { email: a.input.email, password: DEFAULT_PASSWORD },
      remoteAddress: freshIp(),
    });
    const bearer = { authorization: `Bearer ${token.json().token}` };
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/account',
      payload: { password: DEFAULT_PASSWORD },
      headers: bearer,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: bearer })).statusCode).toBe(
      401,
    );
    expect((await a.request({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(401);
  });

  it('GET /account/deletion needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account/deletion' })).statusCode).toBe(401);
  });
});
