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
import { cpuWords, middle, recordPath, recordResult, waitWords } from './results';

/**
 * Issue 4: completed purchases per second (start an order + the provider's signed confirmation) with 32
 * concurrent buyers, next to pgbench's TPC-B (-c 32) on the same PostgreSQL, the machine's ceiling for
 * write transactions. With 1,000 and with 1,000,000 existing ledger entries, each its own database and app,
 * in rounds (`ROUNDS`).
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
      origin: new URL(url).origin,
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

/** A shop to buy from: one business with a card, and 32 signed-in buyers. */
interface Shop {
  base: string;
  cardId: string;
  buyers: string[];
}

async function openShop(base: string): Promise<Shop> {
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
  return { base, cardId, buyers };
}

function measurePurchases(shop: Shop, app: ChildProcess, databaseUrl: string): Promise<LoopResult> {
  const { base, cardId } = shop;
  return closedLoop(
    app,
    shop.buyers,
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
}

/** pgbench's arguments for the database at `url`, through the same socket as the app (or TCP without one). */
function pgbenchArgs(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  return {
    args: ['-h', u.searchParams.get('host') ?? u.hostname, '-p', u.port, '-U', u.username],
    env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
  };
}

/** A new `pgbench_ceiling` database at scale 10 beside the app's, for `pgbenchRun`. */
function pgbenchInit(url: string): void {
  const { args, env } = pgbenchArgs(url);
  for (const command of ['DROP DATABASE IF EXISTS pgbench_ceiling', 'CREATE DATABASE pgbench_ceiling']) {
    execFileSync('psql', [...args, '-d', 'postgres', '-qc', command], { env, stdio: 'ignore' });
  }
  execFileSync('pgbench', [...args, '-i', '-s', '10', '-q', 'pgbench_ceiling'], { env, stdio: 'ignore' });
}

/** TPC-B with 32 clients for the bench's seconds on `pgbench_ceiling`: its tps (throws when it printed none). */
function pgbenchRun(url: string): number {
  const { args, env } = pgbenchArgs(url);
  const out = execFileSync(
    'pgbench',
    [...args, '-c', '32', '-j', '2', '-T', String(SECONDS), 'pgbench_ceiling'],
    { env },
  ).toString();
  const tps = /tps = ([\d.]+)/.exec(out)?.[1];
  if (!tps) throw new Error('pgbench printed no tps');
  return Number(tps);
}

function notMeasured(error: unknown): string {
  return `not measured (${error instanceof Error ? error.message.split('\n')[0] : 'pgbench failed'})`;
}

/** pgbench's TPC-B (-c 32) on the PostgreSQL at `url`, once: the money paths' anchor. */
export function pgbenchTps(url: string): string {
  try {
    pgbenchInit(url);
    return String(pgbenchRun(url));
  } catch (error) {
    return notMeasured(error);
  }
}

/**
 * Rounds at each ledger size (PURCHASES_ROUNDS, default 3): a load, then pgbench on the same PostgreSQL,
 * in turns. The rate, p99 and TPC-B are the medians of the rounds. The growth is the purchases' share of
 * TPC-B with 1,000,000 entries over their share with 1,000 (each size anchored by its own pgbench runs, as
 * the catalogue's growth is by its bare route); the plain ratio of the two rates is kept next to it. The
 * machine's speed moved by a fifth within minutes in some sessions, and one reading of each, minutes apart,
 * carried that drift into both ratios. (Loading the two sizes in turns, both databases and apps up at once,
 * was tried: the 1,000-entry loads then had a p99 of 71–77 ms against 38–45 alone, on this machine.)
 */
const ROUNDS = Number(process.env.PURCHASES_ROUNDS ?? 3);

/** One ledger size's database, app and shop, ready for its loads. */
interface Ledger {
  entries: number;
  dataDir: string;
  embedded: Awaited<ReturnType<typeof startBenchDatabase>>;
  app: ChildProcess;
  shop: Shop;
}

async function openLedger(entries: number, port: number): Promise<Ledger> {
  const dataDir = path.resolve(`data/bench-purchases-${entries}`);
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = await startBenchDatabase(dataDir);
  let app: ChildProcess | undefined;
  try {
    const database = connectDatabase(embedded.url, { max: 1 });
    await runMigrations(database.db);
    await database.close();
    await fillLedger(embedded.url, entries);
    // Profiled like every bench's server: BENCH_CPU_PROFILE and BENCH_QUERY_TIMING (load.ts).
    app = startApp(port, embedded.url, dataDir, { LOGIN_MAX_FAILURES_PER_IP: '1000' });
    const base = `http://127.0.0.1:${port}`;
    await waitForUrl(`${base}/api/health`);
    return { entries, dataDir, embedded, app, shop: await openShop(base) };
  } catch (error) {
    await closeLedger({ dataDir, embedded, app });
    throw error;
  }
}

async function closeLedger(
  ledger: Pick<Ledger, 'dataDir' | 'embedded'> & { app?: ChildProcess },
): Promise<void> {
  if (ledger.app) await stopProcess(ledger.app);
  await ledger.embedded.stop();
  rmSync(ledger.dataDir, { recursive: true, force: true });
}

/** One ledger size's rounds: the loads, pgbench's tps beside each (or why not), in turns. */
async function ledgerRounds(
  entries: number,
): Promise<{ runs: LoopResult[]; anchors: number[]; why: string }> {
  const ledger = await openLedger(entries, PORT);
  const runs: LoopResult[] = [];
  const anchors: number[] = [];
  let why = '';
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      runs.push(await measurePurchases(ledger.shop, ledger.app, ledger.embedded.url));
      if (why) continue;
      try {
        if (round === 0) pgbenchInit(ledger.embedded.url);
        anchors.push(pgbenchRun(ledger.embedded.url));
      } catch (error) {
        why = notMeasured(error);
      }
    }
  } finally {
    await closeLedger(ledger);
  }
  return { runs, anchors, why };
}

export async function benchPurchases(): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  const shares = new Map<number, { rate: number; share: number }>();
  for (const entries of SIZES) {
    const { runs, anchors, why } = await ledgerRounds(entries);
    const label = `${entries.toLocaleString('en')} ledger entries`;
    const rate = middle(runs.map((run) => run.perSecond));
    results[`purchases/s, rounds (${label})`] = runs.map((run) => run.perSecond).join(', ');
    results[`purchase p50 / p99, rounds (${label})`] = runs
      .map((run) => `${run.p50Ms} / ${run.p99Ms}`)
      .join(', ');
    results[`completed / failed (${label})`] = runs
      .map(
        (run) => `${run.completed} / ${run.failed}${run.firstFailure ? ` (first: ${run.firstFailure})` : ''}`,
      )
      .join(', ');
    results[`app RSS before the load → peak under load (${label})`] = runs
      .map((run) => `${run.rssBeforeMb} → ${run.rssMb}`)
      .join(', ')
      .concat(' MiB');
    results[`CPU per purchase: app / PostgreSQL / load, rounds (${label})`] = runs
      .map((run) => cpuWords(run.cpu))
      .join(', ');
    results[`the app's main thread waiting for a core, % of the load, rounds (${label})`] = runs
      .map((run) => waitWords(run.cpu))
      .join(', ');
    results[`pgbench TPC-B -c 32 on the same PostgreSQL: tps, rounds (${label})`] =
      why || anchors.map((tps) => tps.toFixed(0)).join(', ');
    const tps = why ? undefined : middle(anchors);
    if (tps) shares.set(entries, { rate, share: rate / tps });
    if (entries !== 1_000) continue;
    Object.assign(
      results,
      recordPath('purchases', {
        rate,
        anchorName: 'pgbench TPC-B -c 32',
        anchorRate: tps ?? why,
        p99Ms: middle(runs.map((run) => run.p99Ms)),
        rssMb: Math.max(...runs.map((run) => run.rssMb)),
      }),
    );
  }
  const small = shares.get(1_000);
  const large = shares.get(1_000_000);
  if (small && large) {
    const growth = Number((large.share / small.share).toFixed(2));
    const unanchored = Number((large.rate / small.rate).toFixed(2));
    results['purchases with 1,000,000 ÷ with 1,000 entries (each ÷ TPC-B at its size)'] = String(growth);
    results['purchases with 1,000,000 ÷ with 1,000 entries (plain, not anchored)'] = String(unanchored);
    recordResult('growth', { purchases: growth, purchasesUnanchored: unanchored });
  }
  return results;
}
