import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { makeNuban } from '../src/shared/wallet/banks';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { closedLoop, send, startApp, startBenchDatabase, stopProcess, waitForUrl } from './load';
import { pgbenchTps } from './purchases';
import { cpuWords, recordPath, waitWords } from './results';

/**
 * Issue 5: withdrawals requested per second by 32 concurrent businesses (each: PIN check, wallet lock,
 * balance, ledger entry, withdrawal row), next to pgbench TPC-B -c 32 on the same PostgreSQL.
 */
const PORT = 3340;
const BUSINESSES = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function benchWithdrawals(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-withdrawals');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = await startBenchDatabase(dataDir);
  const database = connectDatabase(embedded.url, { max: 1 });
  await runMigrations(database.db);
  await database.close();
  const app = startApp(PORT, embedded.url, dataDir, { LOGIN_MAX_FAILURES_PER_IP: '1000' });
  const base = `http://127.0.0.1:${PORT}`;
  const headers = (cookie?: string) => ({
    'content-type': 'application/json',
    origin: base,
    ...(cookie ? { cookie } : {}),
  });
  try {
    await waitForUrl(`${base}/api/health`);
    const client = new pg.Client({ connectionString: embedded.url });
    client.on('error', () => undefined);
    await client.connect();
    const cookies: string[] = [];
    for (let i = 0; i < BUSINESSES; i += 1) {
      const input = {
        name: `Bench Payouts ${i} ${randomUUID().slice(0, 6)}`,
        email: `payouts-${randomUUID()}@example.test`,
        phoneNumber: '08031234567',
        password: 'bench-password',
        confirmPassword: 'bench-password',
      };
      const created = (await (
        await fetch(`${base}/api/v1/businesses`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify(input),
        })
      ).json()) as { id: string };
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ email: input.email, password: input.password }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      cookies.push(cookie);
      await fetch(`${base}/api/v1/wallet/pin`, {
        method: 'POST',
        headers: headers(cookie),
        body: JSON.stringify({ pin: '2580', confirmPin: '2580' }),
      });
      // Fund the wallet with one balanced entry and give it a default bank account.
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ledger_accounts (kind, currency) VALUES ('payment_clearing','NGN') ON CONFLICT DO NOTHING`,
      );
      const entry = await client.query(
        `INSERT INTO journal_entries (kind, reference) VALUES ('bench', $1) RETURNING id`,
        [`bench-fund:${created.id}`],
      );
      await client.query(
        `INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
         SELECT $1::uuid, id, -1000000000, 'NGN' FROM ledger_accounts WHERE kind = 'payment_clearing' AND owner_id IS NULL AND currency = 'NGN'
         UNION ALL SELECT $1::uuid, id, 1000000000, 'NGN' FROM ledger_accounts WHERE kind = 'business_wallet' AND owner_id = $2::uuid`,
        [entry.rows[0].id, created.id],
      );
      await client.query('COMMIT');
      await client.query(
        `INSERT INTO bank_accounts (business_id, bank_code, bank_name, account_number, account_name, is_default) VALUES ($1, '058', 'Guaranty Trust Bank', $2, 'BENCH', true)`,
        [created.id, makeNuban('058', String(100000000 + i))],
      );
    }
    await client.end();

    const run = await closedLoop(
      app,
      cookies,
      SECONDS,
      async (cookie) => {
        const res = await send(`${base}/api/v1/withdrawals`, {
          method: 'POST',
          headers: { ...headers(cookie), 'idempotency-key': randomUUID() },
          body: JSON.stringify({ amount: 100_000, pin: '2580' }),
        });
        return res.status === 201 ? null : `${res.status} ${res.text.slice(0, 120)}`;
      },
      embedded.url,
    );
    const tps = pgbenchTps(embedded.url);
    const { perSecond, p99Ms, rssMb, cpu } = run;
    return {
      ...recordPath('withdrawals', {
        rate: perSecond,
        anchorName: 'pgbench TPC-B -c 32',
        anchorRate: tps,
        p99Ms,
        rssMb,
      }),
      'app RSS before the load (after set-up) → peak under load': `${run.rssBeforeMb} → ${rssMb} MiB`,
      'CPU per withdrawal: app / PostgreSQL / load': cpuWords(cpu),
      "the app's main thread waiting for a core (% of the load)": waitWords(cpu),
      'withdrawals/s (32 businesses)': String(perSecond),
      'withdrawal p50 / p99': `${run.p50Ms} / ${p99Ms} ms`,
      'completed / failed': `${run.completed} / ${run.failed}${run.firstFailure ? ` (first: ${run.firstFailure})` : ''}`,
      'pgbench TPC-B -c 32 on the same PostgreSQL: tps': tps,
    };
  } finally {
    await stopProcess(app);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
