import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPage } from '../../../shared/notifications/schemas';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { notify } from './notifications.service';

/**
 * The notification list, unread count and mark-as-read over /api/v1, on the real PostgreSQL, for both
 * roles; and what an attacker sends them. Every test makes its own accounts (each starts with its welcome).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** `n` notifications for the account, written like the rooms write them (one transaction each). */
async function give(accountId: string, n: number, title = 'Note'): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    await notify(t.database.db, [
      { accountId, kind: 'card_bought', title: `${title} ${i + 1}`, body: `Body ${i + 1}`, link: '/x' },
    ]);
  }
}

async function page(account: Account, query = ''): Promise<NotificationPage> {
  const res = await account.request({ method: 'GET', url: `/api/v1/notifications${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationPage;
}

function markRead(account: Account, payload: unknown) {
  return account.request({ method: 'POST', url: '/api/v1/notifications/read', payload: payload as object });
}

function expectSafe(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = res.json() as { code?: unknown; message?: unknown };
    expect(typeof body.code, what).toBe('string');
    expect(typeof body.message, what).toBe('string');
    expect(body.message as string, what).not.toMatch(/postgres|sql|stack|TypeError|undefined/i);
  }
}

describe('the list', () => {
  it('shows a business and a user their own notifications, newest first, with the unread count', async () => {
    for (const role of ['business', 'user'] as const) {
      const me = await registerAndLogin(t.app, role);
      const other = await registerAndLogin(t.app, role);
      await give(me.account.id, 2);
      await give(other.account.id, 1, 'Not yours');
      const first = await page(me);
      expect(first.unread).toBe(3);
      expect(first.nextCursor).toBeNull();
      expect(first.items.map((n) => n.title)).toEqual([
        'Note 2',
        'Note 1',
        'Welcome, we are happy to have you onboard',
      ]);
      expect(first.items[0]).toMatchObject({ kind: 'card_bought', body: 'Body 2', link: '/x', read: false });
      expect(first.items.every((n) => !n.title.startsWith('Not yours'))).toBe(true);
    }
  });

  it('pages with a keyset cursor: every notification once, in order, even when they share a time', async () => {
    const me = await registerAndLogin(t.app, 'user');
    // Five written in one transaction share created_at: the id orders them.
    await notify(
      t.database.db,
      Array.from({ length: 5 }, (_, i) => ({
        accountId: me.account.id,
        kind: 'card_sold' as const,
        title: `Same time ${i}`,
        body: 'b',
      })),
    );
    await give(me.account.id, 6);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p: NotificationPage = await page(
        me,
        `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(p.items.length).toBeLessThanOrEqual(4);
      expect(p.unread).toBe(12);
      seen.push(...p.items.map((n) => n.id));
      cursor = p.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(12);
    const all = await page(me, '?limit=50');
    expect(all.items.map((n) => n.id)).toEqual(seen);
    const times = all.items.map((n) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('refuses bad limits and cursors with a 400, never a 500', async () => {
    const me = await registerAndLogin(t.app, 'user');
    for (const query of [
      '?limit=0',
      '?limit=51',
      '?limit=abc',
      '?limit=1.5',
      '?limit=-1',
      '?cursor=%00',
      '?cursor=not-a-cursor',
      `?cursor=${Buffer.from('2024-02-30T25:61:00.000000Z|x').toString('base64url')}`,
      `?cursor=${'A'.repeat(201)}`,
      `?cursor=${Buffer.from(`2024-01-01T00:00:00.000000Z|${randomUUID()}\u0000`).toString('base64url')}`,
    ]) {
      const res = await me.request({ method: 'GET', url: `/api/v1/notifications${query}` });
      expectSafe(res, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('needs a session: 401 JSON for every route, the stream too', async () => {
    for (const options of [
      { method: 'GET', url: '/api/v1/notifications' },
      { method: 'POST', url: '/api/v1/notifications/read', payload: { all: true } },
      { method: 'GET', url: '/api/v1/notifications/stream' },
      {
        method: 'GET',
        url: '/api/v1/notifications',
        headers: { authorization: 'Bearer not-a-token' },
      },
      { method: 'GET', url: '/api/v1/notifications', headers: { cookie: 'giftmart_session=forged' } },
    ] as InjectOptions[]) {
      const res = await t.app.inject(options);
      expect(res.statusCode, `${options.method} ${options.url}`).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});

describe('mark as read', () => {
  it('marks one, then all; a read one keeps its first read time', async () => {
    const me = await registerAndLogin(t.app, 'business');
    await give(me.account.id, 3);
    const before = await page(me);
    expect(before.unread).toBe(4);
    const one = before.items[1]!;
    const marked = await markRead(me, { ids: [one.id] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ unread: 3 });
    const after = await page(me);
    expect(after.unread).toBe(3);
    expect(after.items.find((n) => n.id === one.id)?.read).toBe(true);
    expect(after.items.filter((n) => n.read)).toHaveLength(1);

    const firstReadAt = await readAt(one.id);
    expect(firstReadAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect((await markRead(me, { ids: [one.id, one.id] })).json()).toEqual({ unread: 3 });
    expect((await markRead(me, { all: true })).json()).toEqual({ unread: 0 });
    expect(await readAt(one.id)).toBe(firstReadAt);
    const done = await page(me);
    expect(done.unread).toBe(0);
    expect(done.items.every((n) => n.read)).toBe(true);
    // Nothing left to mark: still 200.
    expect((await markRead(me, { all: true })).json()).toEqual({ unread: 0 });
  });

  it('passes over ids that are another account’s or no one’s: untouched, no error, no hint', async () => {
    const me = await registerAndLogin(t.app, 'user');
    const other = await registerAndLogin(t.app, 'user');
    const theirs = (await page(other)).items[0]!;
    const mine = (await page(me)).items[0]!;
    const res = await markRead(me, { ids: [theirs.id, randomUUID(), mine.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unread: 0 });
    expect(await readAt(theirs.id)).toBeNull();
    expect((await page(other)).unread).toBe(1);
    // Only the other's ids: the same answer as for ids that do not exist.
    const onlyTheirs = await markRead(me, { ids: [theirs.id] });
    const nobody = await markRead(me, { ids: [randomUUID()] });
    expect(onlyTheirs.statusCode).toBe(200);
    expect(onlyTheirs.body).toBe(nobody.body);
    expect(await readAt(theirs.id)).toBeNull();
  });

  it('refuses what is not a list of ids or all:true with a 400, never a 500', async () => {
    const me = await registerAndLogin(t.app, 'user');
    const id = (await page(me)).items[0]!.id;
    const HUGE = 'A'.repeat(100 * 1024);
    const bodies: unknown[] = [
      {},
      { ids: [] },
      { ids: Array.from({ length: 101 }, () => randomUUID()) },
      { ids: Array.from({ length: 5000 }, () => randomUUID()) },
      { ids: ['\u0000'] },
      { ids: [`${id}\u0000`] },
      { ids: [`\u0000${id}`] },
      { ids: ['\u0001\u0002\u001b[31m'] },
      { ids: ['line\r\nInjected: header'] },
      { ids: ['\u202eevil'] },
      { ids: ['\ud800'] },
      { ids: [HUGE] },
      { ids: ["' OR 1=1 --"] },
      { ids: ['%00'] },
      { ids: [id.toUpperCase().replace(/-/g, '')] },
      { ids: id },
      { ids: [1, 2] },
      { ids: [null] },
      { ids: [{ $ne: null }] },
      { ids: null },
      { all: false },
      { all: 'true' },
      { all: 1 },
      { all: true, ids: [id] },
      { all: true, extra: 1 },
      { ids: [id], extra: 'x' },
      [],
      'all',
      null,
      0,
    ];
    for (const payload of bodies) {
      const res = await me.request({
        method: 'POST',
        url: '/api/v1/notifications/read',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      const what = JSON.stringify(payload).slice(0, 80);
      expectSafe(res, what);
      expect(res.statusCode, what).toBe(400);
    }
    for (const raw of ['{"ids":', '\u0000', '{"all":true}\u0000', `{"ids":["${HUGE}"`]) {
      const res = await me.request({
        method: 'POST',
        url: '/api/v1/notifications/read',
        headers: { 'content-type': 'application/json' },
        payload: raw,
      });
      expectSafe(res, JSON.stringify(raw.slice(0, 40)));
      expect(res.statusCode).toBe(400);
    }
    const huge = await me.request({
      method: 'POST',
      url: '/api/v1/notifications/read',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ids: ['x'.repeat(2 * 1024 * 1024)] }),
    });
    expectSafe(huge, 'a 2 MB body');
    expect(huge.statusCode).toBe(413);
    // Nothing above touched anything.
    expect((await page(me)).unread).toBe(1);
  });

  it('twenty mark-alls at once: every answer is 0, with no error and no deadlock', async () => {
    const me = await registerAndLogin(t.app, 'business');
    await notify(
      t.database.db,
      Array.from({ length: 40 }, (_, i) => ({
        accountId: me.account.id,
        kind: 'card_sold' as const,
        title: `Sale ${i}`,
        body: 'b',
      })),
    );
    expect((await page(me)).unread).toBe(41);
    const answers = await Promise.all(Array.from({ length: 20 }, () => markRead(me, { all: true })));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ unread: 0 });
    }
    expect((await page(me)).unread).toBe(0);
    const { rows } = await t.database.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM notifications WHERE account_id = $1 AND read_at IS NOT NULL',
      [me.account.id],
    );
    expect(Number(rows[0]!.n)).toBe(41);
  });

  it('mark some and mark all racing each other end consistent', async () => {
    const me = await registerAndLogin(t.app, 'user');
    await give(me.account.id, 10);
    const ids = (await page(me, '?limit=50')).items.map((n) => n.id);
    const answers = await Promise.all([
      ...ids.map((id) => markRead(me, { ids: [id] })),
      markRead(me, { all: true }),
      markRead(me, { ids: [...ids].reverse() }),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(answers.at(-2)!.json()).toEqual({ unread: 0 });
    expect(answers.at(-1)!.json()).toEqual({ unread: 0 });
    expect((await page(me)).unread).toBe(0);
  });
});

async function readAt(id: string): Promise<string | null> {
  const { rows } = await t.database.pool.query<{ read_at: Date | null }>(
    'SELECT read_at FROM notifications WHERE id = $1',
    [id],
  );
  return rows[0]!.read_at?.toISOString() ?? null;
}
