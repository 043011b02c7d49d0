import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignedInDevice } from '../../../shared/accounts/schemas';
import { DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';
import {
  cookieFrom,
  createTestApp,
  freshIp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';

/** Signed-in devices (issue 12): the caller's own live sessions, and signing one or all others out. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function loginFrom(email: string, ip: string, userAgent: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: DEFAULT_PASSWORD },
    remoteAddress: ip,
    headers: { 'user-agent': userAgent },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cookieFrom(res);
}

async function tokenFrom(email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/tokens',
    payload: { email, password: DEFAULT_PASSWORD },
    remoteAddress: freshIp(),
    headers: { 'user-agent': 'curl/8.5.0' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return `Bearer ${(res.json() as { token: string }).token}`;
}

/** A cookie request as a browser on our origin sends it. */
function asCookie(cookie: string, options: InjectOptions) {
  return t.app.inject({ ...options, headers: { cookie, ...sameOrigin, ...(options.headers ?? {}) } });
}

async function list(cookie: string): Promise<SignedInDevice[]> {
  const res = await asCookie(cookie, { method: 'GET', url: '/api/v1/auth/sessions' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: SignedInDevice[] }).items;
}

function signedIn(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers });
}

function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
}

describe('GET /api/v1/auth/sessions', () => {
  it("lists only the caller's live sessions with browser, IP and last seen, most recently seen first", async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const stranger = await registerAndLogin(t.app, 'user');
    await loginFrom(owner.input.email, '10.9.8.7', SAFARI_IPHONE);
    const laptop = await loginFrom(owner.input.email, '10.1.2.3', CHROME_WINDOWS);
    const api = await tokenFrom(owner.input.email);
    // A signed-out session is not listed.
    const gone = await loginFrom(owner.input.email, freshIp(), CHROME_WINDOWS);
    await asCookie(gone, { method: 'DELETE', url: '/api/v1/auth/session' });

    const items = await list(laptop);
    expect(items).toHaveLength(4); // registerAndLogin's, phone, laptop, token
    const current = items.filter((i) => i.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ browser: 'Chrome on Windows', ip: '10.1.2.3', kind: 'cookie' });
    expect(items.find((i) => i.ip === '10.9.8.7')).toMatchObject({
      browser: 'Safari on iPhone',
      current: false,
    });
    expect(items.filter((i) => i.kind === 'bearer').map((i) => i.browser)).toEqual(['API token']);
    const seen = items.map((i) => i.lastSeenAt);
    expect([...seen].sort().reverse()).toEqual(seen);
    const strangerIds = new Set((await list(stranger.cookie)).map((i) => i.id));
    expect(items.some((i) => strangerIds.has(i.id))).toBe(false);

    // The same list through the Bearer token marks the token as current.
    const viaToken = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sessions',
      headers: { authorization: api },
    });
    expect(viaToken.json().items.find((i: SignedInDevice) => i.current).kind).toBe('bearer');
  });

  it('needs a session (401)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/sessions' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('stores the user agent without control characters, cut to 512 characters', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const ua = `Evil\u0001Agent ${'x'.repeat(1000)}`;
    // Node refuses control characters in a header value, so a client can only send those it allows (tab).
    const cookie = await loginFrom(owner.input.email, freshIp(), `Tab\there ${ua.replace('\u0001', '')}`);
    const { rows } = await t.database.pool.query<{ user_agent: string }>(
      `SELECT user_agent FROM sessions WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [owner.account.id],
    );
    expect(rows[0]!.user_agent).toHaveLength(512);
    expect(rows[0]!.user_agent.startsWith('Tab here EvilAgent')).toBe(true);
    expect((await list(cookie)).find((i) => i.current)!.browser).toBe('Unknown browser');
  });

  it('the old client’s login keeps its browser and IP too', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loginuser',
      payload: { email: owner.input.email, password: DEFAULT_PASSWORD },
      remoteAddress: '10.77.66.55',
      headers: { 'user-agent': SAFARI_IPHONE },
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = await list(cookieFrom(res));
    expect(items.find((i) => i.current)).toMatchObject({ browser: 'Safari on iPhone', ip: '10.77.66.55' });
  });

  it('last seen is written at most once a minute per session', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const lastSeen = async () =>
      (
        await t.database.pool.query<{ last_seen_at: Date }>(
          `SELECT last_seen_at FROM sessions WHERE account_id = $1`,
          [owner.account.id],
        )
      ).rows[0]!.last_seen_at.getTime();
    await t.database.pool.query(
      `UPDATE sessions SET last_seen_at = now() - interval '30 seconds' WHERE account_id = $1`,
      [owner.account.id],
    );
    const recent = await lastSeen();
    await signedIn({ cookie: owner.cookie });
    expect(await lastSeen()).toBe(recent);

    // Five minutes pass: for the database (its row) and for the app (its clock, which the sessions it keeps
    // in memory are timed by).
    await t.database.pool.query(
      `UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE account_id = $1`,
      [owner.account.id],
    );
    const old = await lastSeen();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5 * 60 * 1000 });
    try {
      await Promise.all(Array.from({ length: 5 }, () => signedIn({ cookie: owner.cookie })));
      const touched = await lastSeen();
      expect(touched).toBeGreaterThan(old + 4 * 60 * 1000);
      await signedIn({ cookie: owner.cookie });
      expect(await lastSeen()).toBe(touched);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DELETE /api/v1/auth/sessions/:id', () => {
  it('signs out one other device of the caller; it is then gone from the list', async () => {
    const owner = await registerAndLogin(t.app, 'business');
    const other = await loginFrom(owner.input.email, freshIp(), SAFARI_IPHONE);
    const target = (await list(other)).find((i) => i.current)!;

    const res = await owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${target.id}` });
    expect(res.statusCode, res.body).toBe(204);
    expect(setCookies(res)).toEqual([]);
    expect((await signedIn({ cookie: other })).statusCode).toBe(401);
    expect((await signedIn({ cookie: owner.cookie })).statusCode).toBe(200);
    expect((await list(owner.cookie)).some((i) => i.id === target.id)).toBe(false);

    // Twice is not found: it is no longer signed in.
    const again = await owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${target.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it("never signs out another account's session: 404, and that session still works", async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const victim = await registerAndLogin(t.app, 'user');
    const victimSession = (await list(victim.cookie)).find((i) => i.current)!;
    for (const id of [victimSession.id, randomUUID()]) {
      const res = await owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        code: 'SESSION_NOT_FOUND',
        message: 'That device is not signed in to your account (any more).',
      });
    }
    expect((await signedIn({ cookie: victim.cookie })).statusCode).toBe(200);
  });

  it('refuses a bad id (400), no session (401), a cross-site cookie request (403)', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const own = (await list(owner.cookie)).find((i) => i.current)!;
    for (const id of ['not-a-uuid', '%00', 'x'.repeat(80)]) {
      const res = await owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${id}` });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const none = await t.app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${own.id}` });
    expect(none.statusCode).toBe(401);
    const csrf = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/sessions/${own.id}`,
      headers: { cookie: owner.cookie, origin: 'https://evil.example' },
    });
    expect(csrf.statusCode).toBe(403);
    expect((await signedIn({ cookie: owner.cookie })).statusCode).toBe(200);
  });

  it('signing out the current session also clears its cookie', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const own = (await list(owner.cookie)).find((i) => i.current)!;
    const res = await owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${own.id}` });
    expect(res.statusCode).toBe(204);
    expect(setCookies(res).some((c) => /^giftmart_session=;/.test(c))).toBe(true);
    expect((await signedIn({ cookie: owner.cookie })).statusCode).toBe(401);
  });

  it('20 at once for the same session: one 204, the rest 404', async () => {
    const owner = await registerAndLogin(t.app, 'user');
    const other = await loginFrom(owner.input.email, freshIp(), CHROME_WINDOWS);
    const target = (await list(other)).find((i) => i.current)!;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        owner.request({ method: 'DELETE', url: `/api/v1/auth/sessions/${target.id}` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 204)).toHaveLength(1);
    expect(codes.filter((c) => c === 404)).toHaveLength(19);
  });
});

describe('DELETE /api/v1/auth/sessions (sign out everywhere else)', () => {
  it("signs out every other session of the caller's account, cookie and Bearer, and no one else's", async () => {
    const owner = await registerAndLogin(t.app, 'business');
    const bystander = await registerAndLogin(t.app, 'business');
    const phone = await loginFrom(owner.input.email, freshIp(), SAFARI_IPHONE);
    const token = await tokenFrom(owner.input.email);

    const res = await owner.request({ method: 'DELETE', url: '/api/v1/auth/sessions' });
    expect(res.statusCode, res.body).toBe(204);
    expect((await signedIn({ cookie: phone })).statusCode).toBe(401);
    expect((await signedIn({ authorization: token })).statusCode).toBe(401);
    expect((await signedIn({ cookie: owner.cookie })).statusCode).toBe(200);
    expect((await signedIn({ cookie: bystander.cookie })).statusCode).toBe(200);
    const items = await list(owner.cookie);
    expect(items).toHaveLength(1);
    expect(items[0]!.current).toBe(true);
  });

  it('needs a session (401)', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/sessions' });
    expect(res.statusCode).toBe(401);
  });
});
