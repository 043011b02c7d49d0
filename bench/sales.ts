import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { salesQuery, type SoldCardFilter } from '../src/server/modules/cards/cards.repository';
import { startProcess, stopProcess, waitForUrl } from './load';

/**
 * Issue 13: the business's sales table at 1,000,000 sold cards. Seeds one business's cards in SQL, checks
 * that each filter's query is an index scan (EXPLAIN of the exact query the API runs), times the first page
 * and filtered pages of GET /api/v1/sales (p50/p99 of sequential requests), and a 100,000-row sales.csv
 * export (time and the server's peak resident memory, VmHWM, before and after).
 */
const CARDS = Number(process.env.SALES_BENCH_CARDS ?? 1_000_000);
const PORT = 3370;
const REQUESTS = 200;
/** One card every 30 s back from now: 1,000,000 cards span ~347 days; 100,000 cards ~35 days. */
const SPACING_S = 30;

/** startProcess, or with SALES_BENCH_LOG=<file> the server's log (stdout) kept in that file. */
function start(args: string[], env: Record<string, string>) {
  const log = process.env.SALES_BENCH_LOG;
  if (!log) return startProcess('node', args, env);
  return spawn('node', args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', openSync(log, 'w'), 'inherit'],
  });
}

/** A deterministic version-4-shaped UUID from md5(seed): the API's answers check that ids are UUIDs. */
const uuidFrom = (seed: string) =>
  `(substr(md5(${seed}), 1, 8) || '-' || substr(md5(${seed}), 9, 4) || '-4' || substr(md5(${seed}), 14, 3) || '-8' || substr(md5(${seed}), 18, 3) || '-' || substr(md5(${seed}), 21, 12))::uuid`;

export async function benchSales(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-sales');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = await startEmbeddedPostgres({ dataDir, database: 'bench' });
  const database = connectDatabase(embedded.url, { max: 1 });
  await runMigrations(database.db);
  // SALES_BENCH_SERVER: another build of the server (e.g. a private one while others rebuild dist/).
  const app = start([process.env.SALES_BENCH_SERVER ?? 'dist/server/server.js'], {
    PORT: String(PORT),
    DATABASE_URL: embedded.url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    CODE_ENCRYPTION_KEY: 'bench-code-key-bench-code-key-bench-code-key',
    DATA_DIR: dataDir,
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
  async function signUp(role: 'business' | 'user') {
    const input = {
      name: role === 'business' ? `Bench Shop ${randomUUID().slice(0, 8)}` : 'Bench Buyer',
      ...(role === 'user' ? { username: `b${randomUUID().replace(/-/g, '').slice(0, 20)}` } : {}),
      email: `${role}-${randomUUID()}@example.test`,
      phoneNumber: '08031234567',
      password: 'bench-password',
      confirmPassword: 'bench-password',
    };
    const created = await call('POST', role === 'business' ? '/api/v1/businesses' : '/api/v1/users', {
      body: input,
    });
    const login = await call('POST', '/api/v1/auth/login', {
      body: { email: input.email, password: input.password, role },
    });
    return { id: created.body.id as string, cookie: login.cookie };
  }

  try {
    await waitForUrl(`${base}/api/health`);
    const shop = await signUp('business');
    const buyer = await signUp('user');
    const designA = await call('POST', '/api/v1/gift-cards', {
      cookie: shop.cookie,
      body: { amount: 1_000_000, colour: '#4f46e5' },
    });
    const designB = await call('POST', '/api/v1/gift-cards', {
      cookie: shop.cookie,
      body: { amount: 2_500_000, colour: '#0f766e' },
    });

    // 1,000,000 paid orders, cards and their issue activities in three statements. The card integrity
    // triggers (running balance per activity, balance = sum of activities at commit) and the foreign-key
    // triggers are per row; the rows written here satisfy them (one issue activity = the card's balance),
    // so this session skips them with session_replication_role = replica (the bench only).
    const seedStarted = performance.now();
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL session_replication_role = replica');
      const params = [shop.id, buyer.id, designA.body.id, designB.body.id];
      await client.query(
        `INSERT INTO orders (id, reference, buyer_id, gift_card_id, business_id, amount, currency, status, provider, created_at, paid_at)
         SELECT ${uuidFrom("'order' || g")}, 'GM-BENCH' || lpad(g::text, 12, '0'), $2,
                CASE WHEN g % 10 = 0 THEN $4::uuid ELSE $3::uuid END, $1,
                CASE WHEN g % 10 = 0 THEN 2500000 ELSE 1000000 END, 'NGN', 'paid', 'sandbox',
                now() - make_interval(secs => g * ${SPACING_S}), now() - make_interval(secs => g * ${SPACING_S})
         FROM generate_series(1, ${CARDS}) g`,
        params,
      );
      await client.query(
        `INSERT INTO purchased_cards (id, owner_id, gift_card_id, business_id, order_id, initial_value, balance, currency,
                                      status, code_hash, code_ciphertext, code_last4, created_at, updated_at)
         SELECT ${uuidFrom("'card' || g")}, $2, CASE WHEN g % 10 = 0 THEN $4::uuid ELSE $3::uuid END, $1,
                ${uuidFrom("'order' || g")}, v, v, 'NGN',
                (CASE WHEN g % 20 = 0 THEN 'frozen' ELSE 'active' END)::purchased_card_status,
                md5('hash' || g), 'bench', upper(substr(md5('last4' || g), 1, 4)),
                now() - make_interval(secs => g * ${SPACING_S}), now() - make_interval(secs => g * ${SPACING_S})
         FROM (SELECT g, CASE WHEN g % 10 = 0 THEN 2500000 ELSE 1000000 END AS v FROM generate_series(1, ${CARDS}) g) s`,
        params,
      );
      await client.query(
        `INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, created_at)
         SELECT id, 'issue', initial_value, initial_value, created_at FROM purchased_cards WHERE business_id = $1`,
        [shop.id],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await database.pool.query('VACUUM ANALYZE');
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // EXPLAIN the exact queries the API runs, for the default page and each filter.
    const sample = await database.pool.query(
      `SELECT code_last4, (SELECT reference FROM orders o WHERE o.id = c.order_id) AS reference
       FROM purchased_cards c WHERE business_id = $1 OFFSET ${Math.floor(CARDS / 2)} LIMIT 1`,
      [shop.id],
    );
    const last4 = sample.rows[0].code_last4 as string;
    const reference = sample.rows[0].reference as string;
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const filters: [string, SoldCardFilter, string][] = [
      ['default page', {}, ''],
      ['status=frozen', { status: 'frozen' }, 'status=frozen'],
      ['status=expired', { status: 'expired' }, 'status=expired'],
      ['giftCardId (10 %)', { giftCardId: designB.body.id as string }, `giftCardId=${designB.body.id}`],
      ['q=last four', { last4 }, `q=${last4}`],
      ['q=order reference', { orderReference: reference }, `q=${reference}`],
      [
        'from/to (a month, 100 days ago)',
        { soldFrom: day(130), soldBefore: day(100) },
        `from=${day(130).slice(0, 10)}&to=${day(101).slice(0, 10)}`,
      ],
    ];
    const result: Record<string, string> = {
      'sold cards (one business)': CARDS.toLocaleString('en'),
      'seed (SQL, triggers off in the seeding session)': `${seedSeconds.toFixed(1)} s`,
    };
    for (const [name, filter] of filters) {
      const query = salesQuery(database.db, shop.id, filter, 21).toSQL();
      const plan = await database.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, query.params);
      const json = plan.rows[0]['QUERY PLAN'][0];
      const scans: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        const index = String(node['Index Name'] ?? '');
        if (node['Relation Name'] === 'purchased_cards' || index.startsWith('purchased_cards')) {
          scans.push(`${node['Node Type']}${index ? ` ${index}` : ''}`);
        }
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(json.Plan);
      result[`EXPLAIN ${name}`] = `${scans.join(' + ')} (${Number(json['Execution Time']).toFixed(1)} ms)`;
    }

    async function timed(url: string) {
      const latencies: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const sent = performance.now();
        const res = await fetch(`${base}${url}`, { headers: { cookie: shop.cookie } });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body}`);
        latencies.push(performance.now() - sent);
      }
      latencies.sort((a, b) => a - b);
      const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
      return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`;
    }
    for (const [name, , query] of filters) {
      result[`GET /sales ${name} (${REQUESTS}×)`] = await timed(
        `/api/v1/sales?limit=20${query ? `&${query}` : ''}`,
      );
    }

    // 100,000 cards: the newest ~34.7 days.
    const hwm = () => {
      const status = readFileSync(`/proc/${app.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    };
    const rssBefore = hwm();
    const from = new Date(Date.now() - 100_000 * SPACING_S * 1000 + 3_600_000).toISOString().slice(0, 10);
    const exportStarted = performance.now();
    const csv = await fetch(`${base}/api/v1/sales.csv?from=${from}`, { headers: { cookie: shop.cookie } });
    if (csv.status !== 200) throw new Error(`sales.csv: ${csv.status} ${await csv.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of csv.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    result['sales.csv rows (from ' + from + ')'] = (lines - 1).toLocaleString('en');
    result['sales.csv time / size'] = `${exportSeconds.toFixed(2)} s / ${(bytes / 1e6).toFixed(1)} MB`;
    result['server peak RSS (VmHWM) before → after export'] =
      `${rssBefore.toFixed(0)} MB → ${hwm().toFixed(0)} MB`;
    return result;
  } finally {
    await database.close();
    await stopProcess(app);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
