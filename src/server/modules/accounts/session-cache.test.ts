import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { namedDatabase } from '../../../../tests/fixtures/listen';
import { registerAndLogin, sameOrigin, twoTestApps, type TestApp } from '../../../../tests/fixtures/test-app';
import { forgetCachedSessions, SessionCache } from './session-cache';
import { revokeSession, type LiveSession } from './sessions.repository';

/**
 * Issue 14: each instance keeps the sessions it has looked up, so a signed-in request needs no statement to
 * know who is asking, and forgets them on every change announced through PostgreSQL, whichever instance or
 * statement made it.
 */
let a: TestApp;
let b: TestApp;
twoTestApps((apps) => ([a, b] = apps));

/** Counts the session look-ups an app's pool is asked for. */
function countLookups(app: TestApp): () => number {
  const pool = app.database.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query.bind(pool);
  let count = 0;
  pool.query = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (/from "sessions" inner join "accounts"/.test(text)) count += 1;
    return original(...args);
  };
  return () => count;
}

const sessionOn = (app: TestApp, cookie: string) =>
  app.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });

/** Asks until the session is refused there (an announcement takes a moment to arrive). */
const refusedOn = (app: TestApp, cookie: string) =>
  expect.poll(async () => (await sessionOn(app, cookie)).statusCode, { timeout: 3000 }).toBe(401);

/** Asks until a request is answered from memory (the cache is listening and has kept the session). */
async function warm(app: TestApp, cookie: string, lookups: () => number): Promise<void> {
  await expect
    .poll(async () => {
      const before = lookups();
      expect((await sessionOn(app, cookie)).statusCode).toBe(200);
      return lookups() - before;
    })
    .toBe(0);
}

describe('sessions kept in memory', () => {
  const lookupsOnB = () => bLookups();
  let bLookups: () => number;
  beforeAll(() => {
    bLookups = countLookups(b);
  });

  // Both apps run in this process, so a change made through one also reaches the other directly (as the
  // instance's own changes do); the SQL below, made behind both apps' backs, reaches them only as an announcement.
  it('a request answered from memory reads no session, and logging out on another instance ends it there', async () => {
    const person = await registerAndLogin(a.app, 'user');
    await warm(b, person.cookie, lookupsOnB);
    const out = await person.request({ method: 'DELETE', url: '/api/v1/auth/session' });
    expect(out.statusCode).toBe(204);
    await refusedOn(b, person.cookie);
  });

  it('another instance forgets an account that changed (its new name shows at once) or was deleted', async () => {
    const person = await registerAndLogin(a.app, 'business');
    await warm(b, person.cookie, lookupsOnB);
    const renamed = await person.request({
      method: 'PATCH',
      url: '/api/v1/account',
      payload: { name: `Renamed ${Date.now()}` },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const name = (renamed.json() as { name: string }).name;
    await expect
      .poll(
        async () =>
          ((await sessionOn(b, person.cookie)).json() as { account: { name: string } }).account.name,
        {
          timeout: 3000,
        },
      )
      .toBe(name);

    await warm(b, person.cookie, lookupsOnB);
    // Behind every instance's back, as an operator's SQL would: still announced by the database.
    await a.database.pool.query('UPDATE sessions SET revoked_at = now() WHERE account_id = $1', [
      person.account.id,
    ]);
    await refusedOn(b, person.cookie);
  });

  it('the instance that ends a session refuses it on the very next request', async () => {
    const person = await registerAndLogin(b.app, 'user');
    await warm(b, person.cookie, lookupsOnB);
    const other = await registerAndLogin(b.app, 'user');
    await warm(b, other.cookie, lookupsOnB);
    const out = await b.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie: person.cookie, ...sameOrigin },
    });
    expect(out.statusCode).toBe(204);
    expect((await sessionOn(b, person.cookie)).statusCode).toBe(401);
    expect((await sessionOn(b, other.cookie)).statusCode).toBe(200);
  });

  it('parallel requests with one session are all answered, and a forged token never is', async () => {
    const person = await registerAndLogin(b.app, 'user');
    const answers = await Promise.all(Array.from({ length: 20 }, () => sessionOn(b, person.cookie)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const forged = person.cookie.replace(/=(.)/, (_, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    expect((await sessionOn(b, forged)).statusCode).toBe(401);
  });
});

describe('SessionCache', () => {
  const named = namedDatabase('giftmart-session-cache-test');

  // A channel of its own: the other test files log in and out all the time, which would empty it.
  const channel = `session_cache_test_${process.pid}`;
  const made: SessionCache[] = [];
  afterEach(() => made.splice(0).forEach((cache) => cache.close()));
  const newCache = (options: { maxEntries?: number; maxAgeMs?: number } = {}) => {
    const cache = new SessionCache({
      db: named.database.db,
      log: pino({ level: 'silent' }),
      channel,
      ...options,
    });
    made.push(cache);
    return cache;
  };
  const live = (expiresInMs = 60_000): LiveSession =>
    ({
      session: { id: 's', lastSeenAt: new Date(), expiresAt: new Date(Date.now() + expiresInMs) },
      account: { id: 'a' },
    }) as unknown as LiveSession;

  async function listening(cache: SessionCache): Promise<void> {
    await cache.get('warm', async () => undefined);
    await expect.poll(() => cache.listening).toBe(true);
  }

  it('keeps nothing until announcements arrive, then reads each session once', async () => {
    const cache = newCache();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return live();
    };
    await cache.get('k', load);
    expect(cache.size).toBe(0);
    await expect.poll(() => cache.listening).toBe(true);
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('forgets everything on an announcement, and a read that overlapped one is not kept', async () => {
    const cache = newCache();
    await listening(cache);
    await cache.get('k', async () => live());
    await named.database.pool.query(`SELECT pg_notify($1, '')`, [channel]);
    await expect.poll(() => cache.size).toBe(0);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reading = cache.get('k', async () => {
      await gate;
      return live();
    });
    forgetCachedSessions(); // this instance changed a session while the read was under way
    release();
    expect(await reading).toBeDefined();
    expect(cache.size).toBe(0);
  });

  it('reads again a session past its expiry or kept longer than its time, and keeps at most its number', async () => {
    const cache = newCache({ maxEntries: 3, maxAgeMs: 100 });
    await listening(cache);
    let loads = 0;
    const soon = async () => {
      loads += 1;
      return live(30);
    };
    await cache.get('expiring', soon);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await cache.get('expiring', soon);
    expect(loads).toBe(2);

    const later = async () => {
      loads += 1;
      return live();
    };
    await cache.get('aging', later);
    await cache.get('aging', later);
    expect(loads).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await cache.get('aging', later);
    expect(loads).toBe(4);

    for (let i = 0; i < 10; i++) await cache.get(`k${i}`, async () => live());
    expect(cache.size).toBe(3);
  });

  it("the accounts room's own changes forget at once, before any announcement", async () => {
    const cache = newCache();
    await listening(cache);
    await cache.get('k', async () => live());
    expect(cache.size).toBe(1);
    await revokeSession(named.database.db, randomUUID()); // announced on the sessions channel, not on this one
    expect(cache.size).toBe(0);
  });

  it('stops answering from memory when its connection is lost', async () => {
    const cache = newCache();
    await listening(cache);
    await cache.get('k', async () => live());
    expect(cache.size).toBe(1);
    expect(await named.killListenConnections()).toBe(1);
    await expect.poll(() => cache.listening).toBe(false);
    expect(cache.size).toBe(0);
    let loaded = false;
    await cache.get('k', async () => {
      loaded = true;
      return live();
    });
    expect(loaded).toBe(true);
  });
});
