import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import {
  BENCH_SESSION_SECRET,
  closedLoop,
  send,
  startApp,
  startBenchDatabase,
  stopProcess,
  waitForUrl,
} from './load';
import { pgbenchTps } from './purchases';
import { cpuWords, recordPath, waitWords } from './results';

/**
 * Issue 10: redemptions per second with 32 tills on 32 cards (32 businesses, each with one large card sold
 * through the real purchase path: order, the sandbox's signed confirmation, the code revealed to its buyer),
 * each till redeeming ₦1.00 at a time for 10 s over HTTP (POST /api/v1/redemptions with the code: the
 * look-up limits' two counters, the card's row lock, the activity and its integrity triggers, the new
 * balance, the holder's notification). Next to pgbench TPC-B -c 32 on the same PostgreSQL in the same run.
 *
 * Each till sends its own X-Forwarded-For (TRUST_PROXY=1, as behind one proxy), as 32 shops would come from 32 addresses; the
 * look-up limits are set far above what 10 s can reach, so nothing is refused.
 */
const PORT = 3350;
const TILLS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CARD_VALUE = 100_000_000; // ₦1,000,000: the largest card a business may design by default
const REDEEM = 100; // ₦1.00 a time
const SESSION_SECRET = BENCH_SESSION_SECRET;
const sandboxSecret = createHmac('sha256', SESSION_SECRET).update('giftmart sandbox webhooks').digest('hex');

export async function benchRedemptions(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-redemptions');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = await startBenchDatabase(dataDir);
  const database = connectDatabase(embedded.url, { max: 1 });
  await runMigrations(database.db);
  await database.close();
  const app = startApp(PORT, embedded.url, dataDir, {
    PAYMENT_PROVIDER: 'sandbox',
    TRUST_PROXY: '1',
    LOGIN_MAX_FAILURES_PER_IP: '1000',
    CODE_LOOKUPS_PER_MINUTE_PER_ACCOUNT: '10000000',
    CODE_LOOKUPS_PER_MINUTE_PER_IP: '10000000',
  });
  const base = `http://127.0.0.1:${PORT}`;
  async function call(method: string, url: string, options: { cookie?: string; body?: unknown } = {}) {
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
  async function signUp(role: 'business' | 'user', i: number): Promise<string> {
    const input = {
      name: role === 'business' ? `Bench Till ${i} ${randomUUID().slice(0, 6)}` : `Bench Holder ${i}`,
      ...(role === 'user' ? { username: `h${randomUUID().replace(/-/g, '').slice(0, 20)}` } : {}),
      email: `${role}-${randomUUID()}@example.test`,
      phoneNumber: '08031234567',
      password: 'bench-password',
      confirmPassword: 'bench-password',
    };
    await call('POST', role === 'business' ? '/api/v1/businesses' : '/api/v1/users', { body: input });
    const login = await call('POST', '/api/v1/auth/login', {
      body: { email: input.email, password: input.password, role },
    });
    return login.cookie;
  }

  try {
    await waitForUrl(`${base}/api/health`);
    // 32 businesses, each selling one ₦1,000,000 card to one holder, bought the way a buyer buys it.
    const holder = await signUp('user', 0);
    const tills: { cookie: string; code: string; ip: string }[] = [];
    for (let i = 0; i < TILLS; i += 1) {
      const cookie = await signUp('business', i);
      const design = await call('POST', '/api/v1/gift-cards', {
        cookie,
        body: { amount: CARD_VALUE, colour: '#4f46e5' },
      });
      const order = await call('POST', '/api/v1/orders', {
        cookie: holder,
        body: { giftCardId: design.body.id },
      });
      const raw = JSON.stringify({
        event: 'payment.succeeded',
        data: { reference: order.body.reference, amount: String(CARD_VALUE), currency: 'NGN' },
      });
      const confirmed = await fetch(`${base}/api/v1/payments/sandbox/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-sandbox-signature': createHmac('sha256', sandboxSecret).update(raw).digest('hex'),
        },
        body: raw,
      });
      if (confirmed.status !== 200)
        throw new Error(`confirmation: ${confirmed.status} ${await confirmed.text()}`);
      const paid = await call('GET', `/api/v1/orders/${order.body.id}`, { cookie: holder });
      const revealed = await call('POST', `/api/v1/purchased-cards/${paid.body.purchasedCardId}/code`, {
        cookie: holder,
      });
      tills.push({ cookie, code: revealed.body.code as string, ip: `10.50.${i}.1` });
    }

    const unread = async () =>
      (await call('GET', '/api/v1/notifications?limit=1', { cookie: holder })).body.unread as number;
    const unreadBefore = await unread();
    const run = await closedLoop(
      app,
      tills,
      SECONDS,
      async (till) => {
        const res = await send(`${base}/api/v1/redemptions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: base,
            cookie: till.cookie,
            'x-forwarded-for': till.ip,
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ code: till.code, amount: REDEEM, reference: 'bench' }),
        });
        return res.status === 201 ? null : `${res.status} ${res.text.slice(0, 120)}`;
      },
      embedded.url,
    );
    // The holder's news of each use follows its commit (ADR 024): how long after the load the last arrives.
    const loadEnded = Date.now();
    let newsMs = -1;
    while (Date.now() - loadEnded < 30_000) {
      if ((await unread()) - unreadBefore >= run.completed) {
        newsMs = Date.now() - loadEnded;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const newsCount = (await unread()) - unreadBefore;
    // The floor under every money path: the same tills asking who they are (GET /api/v1/auth/session, the
    // session from the app's cache, no statement), so the CPU of a signed-in request that does nothing shows.
    const floor = await closedLoop(app, tills, SECONDS, async (till) => {
      const res = await send(`${base}/api/v1/auth/session`, {
        headers: { cookie: till.cookie, 'x-forwarded-for': till.ip },
      });
      return res.status === 200 ? null : `${res.status} ${res.text.slice(0, 120)}`;
    });
    const tps = pgbenchTps(embedded.url);
    const { perSecond, p99Ms, rssMb, cpu } = run;
    return {
      ...recordPath('redemptions', {
        rate: perSecond,
        anchorName: 'pgbench TPC-B -c 32',
        anchorRate: tps,
        p99Ms,
        rssMb,
      }),
      'app RSS before the load (after set-up) → peak under load': `${run.rssBeforeMb} → ${rssMb} MiB`,
      'CPU per redemption: app / PostgreSQL / load': cpuWords(cpu),
      "the app's main thread waiting for a core (% of the load)": waitWords(cpu),
      [`redemptions/s (${TILLS} tills on ${TILLS} cards)`]: String(perSecond),
      'redemption p50': `${run.p50Ms} ms`,
      'redemption p99': `${p99Ms} ms`,
      'completed / failed': `${run.completed} / ${run.failed}${run.firstFailure ? ` (first: ${run.firstFailure})` : ''}`,
      "the holder's news: written / the last one after the load": `${newsCount} / ${newsMs < 0 ? 'not within 30 s' : `${newsMs} ms`}`,
      'pgbench TPC-B -c 32 on the same PostgreSQL: tps': tps,
      'floor: signed-in GET /api/v1/auth/session/s (no statement)': `${floor.perSecond} (${floor.failed} failed)`,
      'floor: CPU per request: app / PostgreSQL / load': cpuWords(floor.cpu),
    };
  } finally {
    await stopProcess(app);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
