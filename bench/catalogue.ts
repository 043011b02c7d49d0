import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { load, startProcess, stopProcess, waitForUrl } from './load';

/**
 * Issue 3: GET /api/v1/gift-cards (first page) with 100,000 cards in the database, 32 connections, next to
 * a bare Fastify route answering the same JSON from memory (the framework's ceiling here).
 */
const CARDS = 100_000;
const BUSINESSES = 1_000;
const APP_PORT = 3320;
const BARE_PORT = 3321;

export async function benchCatalogue(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-catalogue');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir, database: 'bench' });
  const url = process.env.DATABASE_URL ?? embedded!.url;
  const database = connectDatabase(url, { max: 2 });
  await runMigrations(database.db);
  // Businesses and cards straight in SQL: the benchmark is about reading them.
  await database.pool.query(`
    INSERT INTO accounts (role, name, email, phone, password_hash)
    SELECT 'business', 'Bench Business ' || g || ' ' || md5(random()::text), 'bench-' || g || '-' || md5(random()::text) || '@example.test',
           '+2348030000000', 'not-a-real-hash'
    FROM generate_series(1, ${BUSINESSES}) g`);
  await database.pool.query(`
    INSERT INTO gift_cards (business_id, unique_id, amount, currency, colour, created_at)
    SELECT b.id, 'BEN-' || upper(substr(md5(g::text || random()::text), 1, 4)) || '-' || lpad(g::text, 6, '0'),
           (1 + g % 500) * 100000, 'NGN', '#4f46e5', now() - make_interval(secs => g)
    FROM generate_series(1, ${CARDS}) g
    JOIN LATERAL (SELECT id FROM accounts WHERE role = 'business' AND name LIKE 'Bench Business %' OFFSET (g % ${BUSINESSES}) LIMIT 1) b ON true`);
  await database.pool.query('ANALYZE');
  const total = (await database.pool.query('SELECT count(*)::int AS n FROM gift_cards')).rows[0].n as number;
  await database.close();

  const app = startProcess('node', ['dist/server/server.js'], {
    PORT: String(APP_PORT),
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${APP_PORT}`,
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    CODE_ENCRYPTION_KEY: 'bench-code-key-bench-code-key-bench-code-key',
    DATA_DIR: dataDir,
  });
  const appUrl = `http://127.0.0.1:${APP_PORT}/api/v1/gift-cards`;
  let bare: ReturnType<typeof startProcess> | undefined;
  try {
    await waitForUrl(appUrl);
    const body = await (await fetch(appUrl)).text();
    const bodyFile = path.join(os.tmpdir(), 'giftmart-bench-catalogue.json');
    writeFileSync(bodyFile, body);
    bare = startProcess('node', ['bench/bare-server.mjs'], { PORT: String(BARE_PORT), BODY_FILE: bodyFile });
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/api/v1/gift-cards`;
    await waitForUrl(bareUrl);

    await load(appUrl, { seconds: 3 }); // warm up
    const real = await load(appUrl);
    const ceiling = await load(bareUrl);
    return {
      'cards in the database': total.toLocaleString('en'),
      'first page size (bytes)': String(Buffer.byteLength(body)),
      'GET /api/v1/gift-cards: requests/s': String(real.requestsPerSecond),
      'GET /api/v1/gift-cards: p99 latency': `${real.p99Ms} ms`,
      'bare Fastify, same JSON from memory: requests/s': String(ceiling.requestsPerSecond),
      'bare Fastify: p99 latency': `${ceiling.p99Ms} ms`,
      'ratio (real / ceiling)': `${((real.requestsPerSecond / ceiling.requestsPerSecond) * 100).toFixed(0)} %`,
      'errors / non-2xx': `${real.errors + ceiling.errors} / ${real.non2xx + ceiling.non2xx}`,
    };
  } finally {
    if (bare) await stopProcess(bare);
    await stopProcess(app);
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
