import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { startProcess, stopProcess, waitForUrl } from './load';

/**
 * Issue 11: live notifications across app instances. Two app processes (A on 3360, B on 3361) share one
 * PostgreSQL and nothing else. Every user keeps one Server-Sent Events stream open on B; a change to their
 * notifications is made elsewhere (a row written straight into PostgreSQL, or a request to A), the table's
 * trigger announces it with NOTIFY, B's one LISTEN connection hears it, recounts and pushes the new count.
 * Measured: the time from sending the change to that user's new count arriving on B's stream, B's memory
 * per open stream, and the notification list's requests per second.
 */
const PORT_A = 3360;
const PORT_B = 3361;
const USERS = 200;
const LIST_SIZE = 50; // notifications of the one user whose list is loaded
const SIGN_UP_CONCURRENCY = 8;
const DELIVERY_TIMEOUT_MS = 15_000;
const SESSION_SECRET = 'bench-session-secret-bench-session-secret';
const CODE_ENCRYPTION_KEY = 'bench-code-key-bench-code-key-bench-code-key';

interface Waiter {
  target: number;
  resolve: (arrivedAt: number) => void;
}

interface Listener {
  id: string;
  cookie: string;
  /** The newest count B sent on this user's stream (undefined until the first event). */
  unread?: number;
  events: number;
  waiter?: Waiter;
  abort: AbortController;
  opened: Promise<void>;
}

interface Round {
  delivered: number;
  expected: number;
  latencies: number[];
  /** How long the change's own request took to be answered (the INSERT's or A's reply). */
  answered: number[];
}

/** VmRSS of a process, in KiB (Linux). */
function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
  return `${ms(percentile(sorted, 0.5))} / ${ms(percentile(sorted, 0.95))} / ${ms(percentile(sorted, 0.99))} / ${ms(sorted.at(-1) ?? NaN)} ms`;
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function benchNotifications(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-notifications');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = await startEmbeddedPostgres({ dataDir, database: 'bench' });
  const database = connectDatabase(embedded.url, { max: 1 });
  await runMigrations(database.db);
  await database.close();
  const env = (port: number) => ({
    PORT: String(port),
    DATABASE_URL: embedded.url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    PAYMENT_PROVIDER: 'sandbox',
    SESSION_SECRET,
    CODE_ENCRYPTION_KEY,
    DATA_DIR: dataDir,
    LOGIN_MAX_FAILURES_PER_IP: '1000000',
  });
  const appA = startProcess('node', ['dist/server/server.js'], env(PORT_A));
  const appB = startProcess('node', ['dist/server/server.js'], env(PORT_B));
  const baseA = `http://127.0.0.1:${PORT_A}`;
  const baseB = `http://127.0.0.1:${PORT_B}`;
  const sql = new pg.Client({ connectionString: embedded.url });
  const listeners: Listener[] = [];

  async function call(
    base: string,
    method: string,
    url: string,
    options: { cookie?: string; body?: unknown },
  ) {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        origin: base,
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(body)}`);
    return { body, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
  }

  /** A user signed up and logged in on A; the session works on B too (same database, same secret). */
  async function signUp(i: number): Promise<{ id: string; cookie: string }> {
    const input = {
      name: `Bench Listener ${i}`,
      username: `n${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      email: `listener-${randomUUID()}@example.test`,
      phoneNumber: '08031234567',
      password: 'bench-password',
      confirmPassword: 'bench-password',
    };
    const created = await call(baseA, 'POST', '/api/v1/users', { body: input });
    const login = await call(baseA, 'POST', '/api/v1/auth/login', {
      body: { email: input.email, password: input.password, role: 'user' },
    });
    return { id: created.body.id as string, cookie: login.cookie };
  }

  /** Opens a user's stream on B and reads it in the background; `opened` settles with the first count. */
  function listen(user: { id: string; cookie: string }): Listener {
    const abort = new AbortController();
    const listener: Listener = { ...user, events: 0, abort, opened: Promise.resolve() };
    listener.opened = new Promise<void>((resolveOpened, rejectOpened) => {
      const timer = setTimeout(() => rejectOpened(new Error('no first count within 30 s')), 30_000);
      void (async () => {
        const res = await fetch(`${baseB}/api/v1/notifications/stream`, {
          headers: { cookie: user.cookie, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (res.status !== 200 || !res.body) throw new Error(`stream: ${res.status} ${await res.text()}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            if (listener.events === 0) throw new Error('the stream ended before its first count');
            return;
          }
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data += line.slice(5).trim();
            }
            if (event !== 'unread' || !data) continue;
            const arrivedAt = performance.now();
            listener.unread = (JSON.parse(data) as { unread: number }).unread;
            listener.events += 1;
            if (listener.events === 1) {
              clearTimeout(timer);
              resolveOpened();
            }
            const waiter = listener.waiter;
            if (waiter && waiter.target === listener.unread) {
              listener.waiter = undefined;
              waiter.resolve(arrivedAt);
            }
          }
        }
      })().catch((error: unknown) => {
        clearTimeout(timer);
        if (!abort.signal.aborted) rejectOpened(error as Error);
      });
    });
    return listener;
  }

  /**
   * One change per listener, `concurrency` at a time (or all in one `batch` call): the clock starts just
   * before the change is sent and stops when the count `target` gives arrives on that user's stream.
   */
  async function round(
    users: Listener[],
    target: (user: Listener) => number,
    send:
      { each: (user: Listener) => Promise<unknown>; concurrency: number } | { batch: () => Promise<unknown> },
  ): Promise<Round> {
    const latencies: number[] = [];
    const answered: number[] = [];
    const arm = (user: Listener, sentAt: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          user.waiter = undefined;
          resolve();
        }, DELIVERY_TIMEOUT_MS);
        user.waiter = {
          target: target(user),
          resolve: (arrivedAt) => {
            clearTimeout(timer);
            latencies.push(arrivedAt - sentAt);
            resolve();
          },
        };
      });
    if ('batch' in send) {
      const sentAt = performance.now();
      const arrived = users.map((user) => arm(user, sentAt));
      await send.batch();
      answered.push(performance.now() - sentAt);
      await Promise.all(arrived);
    } else {
      await inParallel(users, send.concurrency, async (user) => {
        const sentAt = performance.now();
        const arrived = arm(user, sentAt);
        await send.each(user);
        answered.push(performance.now() - sentAt);
        await arrived;
      });
    }
    return { delivered: latencies.length, expected: users.length, latencies, answered };
  }

  const insertOne = (accountIds: string[]) =>
    sql.query(
      `INSERT INTO notifications (account_id, kind, title, body)
       SELECT id, 'welcome', 'Bench notification', 'Written by the fan-out benchmark' FROM unnest($1::uuid[]) AS id`,
      [accountIds],
    );
  const markAllReadOnA = (user: Listener) =>
    call(baseA, 'POST', '/api/v1/notifications/read', { cookie: user.cookie, body: { all: true } });

  try {
    await Promise.all([waitForUrl(`${baseA}/api/health`), waitForUrl(`${baseB}/api/health`)]);
    await sql.connect();
    const pidB = appB.pid!;

    // Users, signed up on A (each starts with its welcome notification: unread 1).
    const signUpStarted = performance.now();
    const users: { id: string; cookie: string }[] = [];
    await inParallel(
      Array.from({ length: USERS + 1 }, (_, i) => i),
      SIGN_UP_CONCURRENCY,
      async (i) => {
        users.push(await signUp(i));
      },
    );
    const signUpSeconds = (performance.now() - signUpStarted) / 1000;
    const reader = users.pop()!;

    // B warmed up the way any instance is once it serves a page: one stream opened (which opens its LISTEN
    // connection and some pool connections) and closed, so the memory difference below is the streams'.
    const warm = listen(users[0]!);
    await warm.opened;
    warm.abort.abort();
    await sleep(2000);
    const rssBefore = rssKiB(pidB);

    const openStarted = performance.now();
    for (const user of users) listeners.push(listen(user));
    const opened = await Promise.allSettled(listeners.map((l) => l.opened));
    const openSeconds = (performance.now() - openStarted) / 1000;
    const streamsOpen = opened.filter((o) => o.status === 'fulfilled').length;
    const failedOpen = opened.find((o) => o.status === 'rejected');
    await sleep(2000);
    const rssAfter = rssKiB(pidB);
    const live = listeners.filter((_, i) => opened[i]!.status === 'fulfilled');

    // 1. A row written straight into PostgreSQL, one user at a time (each waits for its own delivery).
    const insertSerial = await round(live, (u) => u.unread! + 1, {
      each: (u) => insertOne([u.id]),
      concurrency: 1,
    });
    // 2. One INSERT of a row for every user, one commit: every announcement at once.
    const insertBurst = await round(live, (u) => u.unread! + 1, {
      batch: () => insertOne(live.map((u) => u.id)),
    });
    // 3. Through A's API: POST /api/v1/notifications/read { all: true } on A, one user at a time.
    const viaASerial = await round(live, () => 0, { each: markAllReadOnA, concurrency: 1 });
    // 4. The same, every user at once (A serves USERS requests together). A new unread row first.
    await round(live, (u) => u.unread! + 1, { batch: () => insertOne(live.map((u) => u.id)) });
    const viaABurst = await round(live, () => 0, { each: markAllReadOnA, concurrency: live.length });
    const rssAfterRounds = rssKiB(pidB);

    for (const listener of listeners) listener.abort.abort();
    await sleep(500);

    // The notification list of one user with LIST_SIZE notifications, the page the web app asks for.
    await sql.query(
      `INSERT INTO notifications (account_id, kind, title, body, created_at)
       SELECT $1, 'welcome', 'Bench notification ' || n, 'Written by the list benchmark', now() - n * interval '1 minute'
       FROM generate_series(1, $2::int) AS n`,
      [reader.id, LIST_SIZE - 1],
    );
    const listed = await call(baseA, 'GET', '/api/v1/notifications?limit=20', { cookie: reader.cookie });
    const listLoad = await autocannon({
      url: `${baseA}/api/v1/notifications?limit=20`,
      connections: 32,
      duration: 10,
      headers: { cookie: reader.cookie },
    });

    const row = (name: string, r: Round) => ({
      [`${name}: delivered / expected`]: `${r.delivered} / ${r.expected}`,
      [`${name}: p50 / p95 / p99 / max`]: summary(r.latencies),
      [`${name}: the change answered, p50 / p95 / p99 / max`]: summary(r.answered),
    });
    const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
    return {
      'users signed up on A': `${users.length + 1} in ${signUpSeconds.toFixed(1)} s`,
      'streams open on B / asked': `${streamsOpen} / ${listeners.length} in ${openSeconds.toFixed(2)} s${failedOpen && failedOpen.status === 'rejected' ? ` (first failure: ${String(failedOpen.reason).slice(0, 120)})` : ''}`,
      'B RSS before streams / with streams / after the rounds': `${mib(rssBefore)} / ${mib(rssAfter)} / ${mib(rssAfterRounds)}`,
      'B RSS per open stream': `${((rssAfter - rssBefore) / Math.max(1, streamsOpen)).toFixed(1)} KiB`,
      ...row('SQL INSERT, one user at a time', insertSerial),
      ...row(`SQL INSERT, ${live.length} rows in one commit`, insertBurst),
      ...row('POST …/notifications/read on A, one at a time', viaASerial),
      ...row(`POST …/notifications/read on A, ${live.length} at once`, viaABurst),
      [`GET /api/v1/notifications?limit=20 (${(listed.body.items as unknown[]).length} of ${LIST_SIZE}), 32 conn, 10 s: req/s`]:
        String(Math.round(listLoad.requests.average)),
      'list p50 / p99': `${listLoad.latency.p50} / ${listLoad.latency.p99} ms`,
      'list errors / non-2xx': `${listLoad.errors} / ${listLoad.non2xx}`,
    };
  } finally {
    for (const listener of listeners) listener.abort.abort();
    await sql.end().catch(() => undefined);
    await Promise.all([stopProcess(appA), stopProcess(appB)]);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
