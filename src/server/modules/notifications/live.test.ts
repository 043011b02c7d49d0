import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { namedDatabase } from '../../../../tests/fixtures/listen';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { LiveNotifications, liveNotificationsOn } from './live';
import { notify } from './notifications.service';

/**
 * The live unread count (Server-Sent Events) over real sockets: the app listens on a free port and the
 * stream is read with fetch, the way a browser's EventSource reads it. Two app instances on one database
 * show the LISTEN/NOTIFY fan-out across instances.
 */
interface SseEvent {
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

interface StreamReader {
  response: Response;
  events: SseEvent[];
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

function parseBlock(block: string): SseEvent {
  const event: SseEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) event.comment = line.slice(1).trim();
    else {
      const at = line.indexOf(':');
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'event' || field === 'data' || field === 'retry') event[field] = value;
    }
  }
  return event;
}

async function openStream(url: string, headers: Record<string, string>): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let taken = 0;
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) !== -1) {
          const event = parseBlock(buffer.slice(0, split));
          buffer = buffer.slice(split + 2);
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.match(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    response,
    events,
    ended,
    close: () => controller.abort(),
    next(match, timeoutMs = 5000) {
      // Events not yet taken by an earlier next() count too.
      const found = events.slice(taken).find(match);
      if (found) {
        taken = events.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(events)}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            taken = events.indexOf(e) + 1;
            resolve(e);
          },
        });
      });
    },
  };
}

const unread = (n: number) => (e: SseEvent) =>
  e.event === 'unread' && e.data === JSON.stringify({ unread: n });
const anyUnread = (e: SseEvent) => e.event === 'unread';

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

let a: TestApp;
let b: TestApp;
let baseA: string;
let baseB: string;
const open: StreamReader[] = [];
beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp();
  baseA = await listen(a);
  baseB = await listen(b);
});
afterAll(async () => {
  for (const s of open) s.close();
  await a.close();
  await b.close();
});

async function stream(base: string, cookie: string, extra: Record<string, string> = {}) {
  const s = await openStream(`${base}/api/v1/notifications/stream`, { cookie, ...extra });
  open.push(s);
  return s;
}

function give(t: TestApp, accountId: string, title = 'News') {
  return notify(t.database.db, [{ accountId, kind: 'card_bought', title, body: 'b' }]);
}

describe('the stream', () => {
  it('answers an event stream: retry, then the unread count at once, uncompressed, with the security headers', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await stream(baseA, me.cookie, { 'accept-encoding': 'gzip, deflate, br' });
    expect(s.response.status).toBe(200);
    expect(s.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.response.headers.get('cache-control')).toMatch(/^no-cache/);
    expect(s.response.headers.get('x-accel-buffering')).toBe('no');
    expect(s.response.headers.get('content-encoding')).toBeNull();
    expect(s.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(s.response.headers.get('x-request-id')).toBeTruthy();
    expect(s.events[0] ?? (await s.next(() => true))).toEqual({ retry: '5000' });
    await s.next(unread(1));
  });

  it('sends the new count when a notification arrives and when one is read, to every tab of the account only', async () => {
    const me = await registerAndLogin(a.app, 'business');
    const other = await registerAndLogin(a.app, 'business');
    const tab1 = await stream(baseA, me.cookie);
    const tab2 = await stream(baseA, me.cookie);
    const theirs = await stream(baseA, other.cookie);
    await Promise.all([tab1.next(unread(1)), tab2.next(unread(1)), theirs.next(unread(1))]);

    await give(a, me.account.id);
    await Promise.all([tab1.next(unread(2)), tab2.next(unread(2))]);
    const read = await me.request({
      method: 'POST',
      url: '/api/v1/notifications/read',
      payload: { all: true },
    });
    expect(read.json()).toEqual({ unread: 0 });
    await Promise.all([tab1.next(unread(0)), tab2.next(unread(0))]);
    expect(theirs.events.filter(anyUnread)).toHaveLength(1);
  });

  it('a rolled-back notification announces nothing', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await stream(baseA, me.cookie);
    await s.next(unread(1));
    await a.database.db
      .transaction(async (tx) => {
        await notify(tx, [{ accountId: me.account.id, kind: 'card_bought', title: 'x', body: 'y' }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await give(a, me.account.id);
    await s.next(unread(2));
    expect(s.events.filter(anyUnread).map((e) => e.data)).toEqual(['{"unread":1}', '{"unread":2}']);
  });

  it('works with a Bearer token too, and 401s without a session (JSON, not a stream)', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const tokenRes = await a.app.inject({
      method: 'POST',
      url: '/api/v1/auth/tokens',
      payload: { email: me.input.email, password: me.input.password },
    });
    expect(tokenRes.statusCode, tokenRes.body).toBe(201);
    const token = (tokenRes.json() as { token: string }).token;
    const s = await openStream(`${baseA}/api/v1/notifications/stream`, { authorization: `Bearer ${token}` });
    open.push(s);
    await s.next(unread(1));

    const head = await fetch(`${baseA}/api/v1/notifications/stream`, {
      method: 'HEAD',
      headers: { cookie: me.cookie },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');

    const anonymous = await fetch(`${baseA}/api/v1/notifications/stream`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/application\/json/);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('a stream closed by the browser is forgotten', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await stream(baseA, me.cookie);
    await s.next(unread(1));
    s.close();
    await expect.poll(() => liveOf(a).count(me.account.id)).toBe(0);
    await give(a, me.account.id); // no stream: nothing to send, nothing breaks
  });

  it('keeps at most 10 streams per account: an 11th closes the oldest', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const tabs: StreamReader[] = [];
    for (let i = 0; i < 11; i += 1) {
      const s = await stream(baseA, me.cookie);
      await s.next(unread(1));
      tabs.push(s);
    }
    await tabs[0]!.ended;
    expect(liveOf(a).count(me.account.id)).toBe(10);
    await give(a, me.account.id);
    await Promise.all(tabs.slice(1).map((s) => s.next(unread(2))));
  });
});

describe('across app instances', () => {
  it('a notification written through instance A reaches a stream open on instance B', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const onB = await stream(baseB, me.cookie);
    await onB.next(unread(1));
    // A real event through A's API: reading the welcome lowers the count on B.
    const welcome = (
      (await me.request({ method: 'GET', url: '/api/v1/notifications' })).json() as {
        items: { id: string }[];
      }
    ).items[0]!;
    await me.request({ method: 'POST', url: '/api/v1/notifications/read', payload: { ids: [welcome.id] } });
    await onB.next(unread(0));
    await give(a, me.account.id, 'From A');
    await onB.next(unread(1));
    // Both instances keep one LISTEN connection each, whatever the number of streams.
    expect(liveOf(a).listening).toBe(true);
    expect(liveOf(b).listening).toBe(true);
  });

  it('app.close() with streams open ends them and does not hang', async () => {
    const c = await createTestApp();
    const base = await listen(c);
    const me = await registerAndLogin(c.app, 'user');
    const s1 = await stream(base, me.cookie);
    const s2 = await stream(base, me.cookie);
    await Promise.all([s1.next(unread(1)), s2.next(unread(1))]);
    const started = Date.now();
    await Promise.race([
      c.close(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('app.close() hung')), 5000)),
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
    await Promise.all([s1.ended, s2.ended]);
  });
});

describe('the LISTEN connection', () => {
  const named = namedDatabase('giftmart-live-test');
  let server: http.Server;
  let hub: LiveNotifications;
  let base: string;

  beforeAll(async () => {
    hub = new LiveNotifications({
      db: named.database.db,
      log: pino({ level: 'silent' }),
      keepAliveMs: 100,
      maxStreamsPerAccount: 2,
      reconnectBaseMs: 50,
      reconnectMaxMs: 200,
    });
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const query = new URL(req.url!, 'http://x').searchParams;
      const endIn = query.get('endIn');
      void hub.open(query.get('account')!, res, endIn ? new Date(Date.now() + Number(endIn)) : undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hub.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const hubStream = async (accountId: string) => {
    const s = await openStream(`${base}/?account=${accountId}`, {});
    open.push(s);
    return s;
  };

  it('sends a keep-alive comment while nothing happens', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await hubStream(me.account.id);
    await s.next(unread(1));
    await s.next((e) => e.comment === 'keep-alive');
  });

  it('starts lazily, and after the connection is killed reconnects and sends what changed meanwhile', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await hubStream(me.account.id);
    await s.next(unread(1));
    expect(hub.listening).toBe(true);
    expect(await named.killListenConnections()).toBe(1);
    await expect.poll(() => hub.listening).toBe(false);
    await give(a, me.account.id); // announced to nobody here: the connection is down
    await s.next(unread(2)); // the recount after reconnecting
    await expect.poll(() => hub.listening).toBe(true);
    await give(a, me.account.id);
    await s.next(unread(3));
  });

  it('ends a stream when its session expires (the browser reconnects and is asked again)', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const s = await openStream(`${base}/?account=${me.account.id}&endIn=300`, {});
    open.push(s);
    await s.next(unread(1));
    await s.ended;
    expect(hub.count(me.account.id)).toBe(0);
  });

  it('closes the oldest stream of an account past the cap', async () => {
    const me = await registerAndLogin(a.app, 'user');
    const first = await hubStream(me.account.id);
    await first.next(unread(1));
    const second = await hubStream(me.account.id);
    await second.next(unread(1));
    const third = await hubStream(me.account.id);
    await third.next(unread(1));
    await first.ended;
    expect(hub.count(me.account.id)).toBe(2);
  });
});

function liveOf(t: TestApp): LiveNotifications {
  const hub = liveNotificationsOn(t.app.server);
  if (!hub) throw new Error('no live notifications on this app');
  return hub;
}
