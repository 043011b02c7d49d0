import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import {
  BENCH_SESSION_SECRET,
  closedLoop,
  send,
  startApp,
  startBenchDatabase,
  stopProcess,
  waitForUrl,
  type LoopResult,
} from './load';
import { cpuWords, recordPath, recordResult } from './results';

/**
 * Issue 4: completed purchases per second (start an order + the provider's signed confirmation) with 32
 * concurrent buyers, next to pgbench's TPC-B (-c 32) on the same PostgreSQL, the machine's ceiling for
 * write transactions. Run once with 1,000 and once with 1,000,000 existing ledger entries.
 */
const PORT = 3330;
const BUYERS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** PURCHASES_ENTRIES=1000 runs only that ledger size (a quick look); both by default. */
const SIZES = process.env.PURCHASES_ENTRIES ? [Number(process.env.PURCHASES_ENTRIES)] : [1_000, 1_000_000];
const SESSION_SECRET = BENCH_SESSION_SECRET;

const sandboxSecret = createHmac('sha256', SESSION_SECRET).update('giftmart sandbox webhooks').digest('hex');

async function json(url: string, init: RequestInit & { cookie?: string } = {}) {
  const res = await fetch(url, {
    ...init,
    headers: {
      'content-type': 'application/json',
      origin: `http://127.0.0.1:${PORT}`,
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...((init.headers as Record<string, string>) ?? {}),
    },
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown>, res };
}

function cookieOf(res: Response): string {
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

async function fillLedger(url: string, entries: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Bulk history: the integrity triggers run per row, so they are paused for this load only (it balances).
    await client.query('ALTER TABLE postings DISABLE TRIGGER USER');
    await client.query('ALTER TABLE journal_entries DISABLE TRIGGER USER');
    await client.query(
      `INSERT INTO ledger_accounts (kind, currency) VALUES ('payment_clearing', 'NGN') ON CONFLICT DO NOTHING`,
    );
    await client.query(
      `INSERT INTO ledger_accounts (kind, currency) VALUES ('platform_revenue', 'NGN') ON CONFLICT DO NOTHING`,
    );
    await client.query(`
      WITH e AS (
        INSERT INTO journal_entries (kind, reference)
        SELECT 'bench', 'bench:' || g || ':' || gen_random_uuid() FROM generate_series(1, ${entries}) g
        RETURNING id)
      INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
      SELECT e.id, a.id, CASE a.kind WHEN 'payment_clearing' THEN -100 ELSE 100 END, 'NGN'
      FROM e CROSS JOIN (SELECT id, kind FROM ledger_accounts WHERE owner_id IS NULL AND kind IN ('payment_clearing','platform_revenue') AND currency = 'NGN') a`);
    await client.query('ALTER TABLE postings ENABLE TRIGGER USER');
    await client.query('ALTER TABLE journal_entries ENABLE TRIGGER USER');
    await client.query('COMMIT');
    // Measure the steady state, not the bulk load's aftermath: without this, autovacuum's pass over the
    // new rows and the checkpoint of their WAL ran during the load and halved the 1,000,000 run's rate.
    // Only the tables just filled: an ANALYZE of the still empty card and order tables told the planner they
    // hold nothing, so every connection kept a plan that scans them whole (the card checks' read of a
    // card's last activity became a scan and a sort of all activities) while the load filled them, which a
    // database in use, analyzed by autovacuum only once tables hold rows, never sees (ninth session).
    await client.query('VACUUM ANALYZE journal_entries, postings, ledger_accounts');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

async function measurePurchases(base: string, app: ChildProcess, databaseUrl: string): Promise<LoopResult> {
  // One business with a card, and 32 signed-in buyers.
  const biz = {
    name: `Bench Shop ${randomUUID().slice(0, 8)}`,
    email: `shop-${randomUUID()}@example.test`,
    phoneNumber: '08031234567',
    password: 'bench-password',
    confirmPassword: 'bench-password',
  };
  await json(`${base}/api/v1/businesses`, { method: 'POST', body: JSON.stringify(biz) });
  const bizLogin = await json(`${base}/api/v1/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: biz.email, password: biz.password }),
  });
  const card = await json(`${base}/api/v1/gift-cards`, {
    method: 'POST',
    cookie: cookieOf(bizLogin.res),
    body: JSON.stringify({ amount: 500000, colour: '#4f46e5' }),
  });
  const cardId = card.body.id as string;
  const buyers: string[] = [];
  for (let i = 0; i < BUYERS; i += 1) {
    const user = {
      name: `Buyer ${i}`,
      username: `b${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      email: `buyer-${randomUUID()}@example.test`,
      phoneNumber: '08031234567',
      password: 'bench-password',
      confirmPassword: 'bench-password',
    };
    await json(`${base}/api/v1/users`, { method: 'POST', body: JSON.stringify(user) });
    const login = await json(`${base}/api/v1/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    buyers.push(cookieOf(login.res));
  }

  const run = await closedLoop(
    app,
    buyers,
    SECONDS,
    async (cookie) => {
      const order = await send(`${base}/api/v1/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: base,
          cookie,
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ giftCardId: cardId }),
      });
      if (order.status !== 201) return `order ${order.status}`;
      const raw = JSON.stringify({
        event: 'payment.succeeded',
        data: {
          reference: (JSON.parse(order.text) as { reference: string }).reference,
          amount: '500000',
          currency: 'NGN',
        },
      });
      const confirmed = await send(`${base}/api/v1/payments/sandbox/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-sandbox-signature': createHmac('sha256', sandboxSecret).update(raw).digest('hex'),
        },
        body: raw,
      });
      return confirmed.status === 200 &&
        (JSON.parse(confirmed.text) as { result: string }).result === 'issued'
        ? null
        : `confirmation ${confirmed.status} ${confirmed.text.slice(0, 120)}`;
    },
    databaseUrl,
  );
  return run;
}

export function pgbenchTps(url: string): string {
  try {
    const u = new URL(url);
    const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
    // Through the same socket as the app (the URL's host parameter), or TCP when it has none.
    const args = ['-h', u.searchParams.get('host') ?? u.hostname, '-p', u.port, '-U', u.username];
    const admin = new URL(url);
    admin.pathname = '/postgres';
    execFileSync('psql', [...args, '-d', 'postgres', '-qc', 'DROP DATABASE IF EXISTS pgbench_ceiling'], {
      env,
      stdio: 'ignore',
    });
    execFileSync('psql', [...args, '-d', 'postgres', '-qc', 'CREATE DATABASE pgbench_ceiling'], {
      env,
      stdio: 'ignore',
    });
    execFileSync('pgbench', [...args, '-i', '-s', '10', '-q', 'pgbench_ceiling'], { env, stdio: 'ignore' });
    const out = execFileSync(
      'pgbench',
      [...args, '-c', '32', '-j', '2', '-T', String(SECONDS), 'pgbench_ceiling'],
      { env },
    ).toString();
    return /tps = ([\d.]+)/.exec(out)?.[1] ?? 'unknown';
  } catch (error) {
    return `not measured (${error instanceof Error ? error.message.split('\n')[0] : 'pgbench failed'})`;
  }
}

export async function benchPurchases(): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  const rates = new Map<number, number>();
  for (const entries of SIZES) {
    const dataDir = path.resolve(`data/bench-purchases`);
    rmSync(dataDir, { recursive: true, force: true });
    const embedded = await startBenchDatabase(dataDir);
    const database = connectDatabase(embedded.url, { max: 1 });
    await runMigrations(database.db);
    await database.close();
    await fillLedger(embedded.url, entries);
    // Profiled like every bench's server: BENCH_CPU_PROFILE and BENCH_QUERY_TIMING (load.ts).
    const app = startApp(PORT, embedded.url, dataDir, { LOGIN_MAX_FAILURES_PER_IP: '1000' });
    try {
      const base = `http://127.0.0.1:${PORT}`;
      await waitForUrl(`${base}/api/health`);
      const run = await measurePurchases(base, app, embedded.url);
      const { rssMb } = run;
      rates.set(entries, run.perSecond);
      const label = `${entries.toLocaleString('en')} ledger entries`;
      results[`purchases/s (${label})`] = String(run.perSecond);
      results[`purchase p50 / p99 (${label})`] = `${run.p50Ms} / ${run.p99Ms} ms`;
      results[`completed / failed (${label})`] =
        `${run.completed} / ${run.failed}${run.firstFailure ? ` (first: ${run.firstFailure})` : ''}`;
      results[`app RSS before the load → peak under load (${label})`] = `${run.rssBeforeMb} → ${rssMb} MiB`;
      results[`CPU per purchase: app / PostgreSQL / load (${label})`] = cpuWords(run.cpu);
      if (entries === 1_000) {
        const tps = pgbenchTps(embedded.url);
        results['pgbench TPC-B -c 32 on the same PostgreSQL: tps'] = tps;
        Object.assign(
          results,
          recordPath('purchases', {
            rate: run.perSecond,
            anchorName: 'pgbench TPC-B -c 32',
            anchorRate: tps,
            p99Ms: run.p99Ms,
            rssMb,
          }),
        );
      }
    } finally {
      await stopProcess(app);
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const small = rates.get(1_000);
  const large = rates.get(1_000_000);
  if (small && large) {
    const growth = Number((large / small).toFixed(2));
    results['purchases/s with 1,000,000 ÷ with 1,000 entries'] = String(growth);
    recordResult('growth', { purchases: growth });
  }
  return results;
}
