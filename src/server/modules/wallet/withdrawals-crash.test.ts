import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { serverProcesses, sleep } from '../../../../tests/fixtures/server-process';
import type { Withdrawal } from '../../../shared/wallet/schemas';
import { makeNuban } from '../../../shared/wallet/banks';
import { businessInput, DEFAULT_PASSWORD } from '../../../../tests/fixtures/factories';

/**
 * The real server process is killed (SIGKILL: no shutdown hook runs) between the withdrawal requests and
 * their payouts — some not picked up yet, some leased, some sent and pending at the sandbox bank, some sent
 * but not yet recorded as sent — then started again on the same data folder. Every withdrawal ends paid, with exactly one transfer at the bank,
 * one debit and one settlement entry, and the wallet holds what is left.
 */
const WITHDRAWALS = 10;
const FUNDING = 5_000_000n;
const PIN = '2580';
const amountOf = (i: number) => 100_000 + i * 1_000;

const { startServer, waitForHealth, connectEmbedded, childOf, freePort, isAlive, tempDataDir } =
  serverProcesses();

function api(port: number) {
  const base = `http://127.0.0.1:${port}`;
  return async function call(method: string, url: string, options: { cookie?: string; json?: unknown } = {}) {
    const headers: Record<string, string> = { origin: base };
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    return fetch(`${base}${url}`, { method, headers, body, redirect: 'manual' });
  };
}

async function signUpBusiness(call: ReturnType<typeof api>) {
  const input = businessInput();
  const registered = await call('POST', '/api/v1/businesses', { json: input });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const login = await call('POST', '/api/v1/auth/login', {
    json: { email: input.email, password: DEFAULT_PASSWORD, role: 'business' },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('giftmart_session='))!
    .split(';')[0]!;
  return { id: ((await registered.json()) as { id: string }).id, cookie };
}

/** Money in from a sale, as one balanced entry: payment clearing → the business's wallet. */
async function fundWallet(db: pg.Client, businessId: string, amount: bigint): Promise<void> {
  await db.query('BEGIN');
  try {
    await db.query(
      `INSERT INTO ledger_accounts (kind, currency) VALUES ('payment_clearing', 'NGN')
       ON CONFLICT (kind, currency) WHERE owner_id IS NULL DO NOTHING`,
    );
    await db.query(
      `INSERT INTO ledger_accounts (kind, owner_id, currency) VALUES ('business_wallet', $1, 'NGN')
       ON CONFLICT (kind, owner_id, currency) WHERE owner_id IS NOT NULL DO NOTHING`,
      [businessId],
    );
    const clearing = (
      await db.query<{ id: string }>(
        "SELECT id FROM ledger_accounts WHERE kind = 'payment_clearing' AND currency = 'NGN' AND owner_id IS NULL",
      )
    ).rows[0]!.id;
    const wallet = (
      await db.query<{ id: string }>(
        "SELECT id FROM ledger_accounts WHERE kind = 'business_wallet' AND currency = 'NGN' AND owner_id = $1",
        [businessId],
      )
    ).rows[0]!.id;
    const entry = (
      await db.query<{ id: string }>(
        "INSERT INTO journal_entries (kind, reference) VALUES ('test_funding', $1) RETURNING id",
        [`test-funding:${businessId}`],
      )
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
       VALUES ($1, $2, $3, 'NGN'), ($1, $4, $5, 'NGN')`,
      [entry, clearing, String(-amount), wallet, String(amount)],
    );
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

describe('a crash between the withdrawal request and the payout', () => {
  it('SIGKILL with payouts in flight, restart: every payout completes exactly once', async () => {
    const dataDir = tempDataDir('giftmart-withdrawal-crash-test-');
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir };
    const call = api(port);

    const first = startServer(env);
    await waitForHealth(port, first.output);
    const serverPid = childOf(first.proc.child.pid!);
    expect(serverPid, 'the node process tsx started').toBeDefined();
    first.proc.serverPid = serverPid;

    const business = await signUpBusiness(call);
    const watcher = await connectEmbedded(dataDir);
    await fundWallet(watcher, business.id, FUNDING);
    const pin = await call('POST', '/api/v1/wallet/pin', {
      cookie: business.cookie,
      json: { pin: PIN, confirmPin: PIN },
    });
    expect(pin.status, await pin.clone().text()).toBe(201);
    await watcher.query(
      `INSERT INTO bank_accounts (business_id, bank_code, bank_name, account_number, account_name, is_default)
       VALUES ($1, '058', 'Guaranty Trust Bank', $2, 'TEST', true)`,
      [business.id, makeNuban('058', '123456789')],
    );

    // The requests answer at once; the payout worker (every 250 ms) leases them, sends the transfers, and
    // the sandbox bank settles each 1.5 s after it was sent. The server is killed right after the last request.
    const ids: string[] = [];
    for (let i = 0; i < WITHDRAWALS; i += 1) {
      const res = await call('POST', '/api/v1/withdrawals', {
        cookie: business.cookie,
        json: { amount: amountOf(i), pin: PIN },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      ids.push(((await res.json()) as Withdrawal).id);
    }
    process.kill(serverPid!, 'SIGKILL');
    await first.exited;
    expect(isAlive(serverPid!)).toBe(false);

    // What the crash left (the database itself kept running, orphaned).
    const crashState = (
      await watcher.query<{ status: string; n: number }>(
        'SELECT status::text, count(*)::int AS n FROM withdrawals WHERE business_id = $1 GROUP BY status ORDER BY status',
        [business.id],
      )
    ).rows;
    const unfinished = crashState
      .filter((row) => row.status === 'requested' || row.status === 'processing')
      .reduce((sum, row) => sum + row.n, 0);
    expect(unfinished, `unfinished at the crash: ${JSON.stringify(crashState)}`).toBeGreaterThan(0);

    // The hardest moment to die is between the bank accepting a transfer and the withdrawal recording it:
    // the restarted worker must not pay it twice. A kill lands in that window only now and then, so the
    // state it leaves is made here for up to two withdrawals still 'requested': the bank has the transfer
    // (exactly the row the sandbox's transfer() writes), the withdrawal does not know yet.
    const sentUnrecorded = (
      await watcher.query<{ reference: string }>(
        `INSERT INTO sandbox_transfers (reference, account_number, amount, currency)
         SELECT w.reference, b.account_number, w.amount, w.currency
           FROM withdrawals w JOIN bank_accounts b ON b.id = w.bank_account_id
          WHERE w.business_id = $1 AND w.status = 'requested'
            AND NOT EXISTS (SELECT 1 FROM sandbox_transfers t WHERE t.reference = w.reference)
          ORDER BY w.created_at LIMIT 2
         RETURNING reference`,
        [business.id],
      )
    ).rows;
    await watcher.end();
    expect(sentUnrecorded.length, `at the crash: ${JSON.stringify(crashState)}`).toBeGreaterThan(0);

    // Restart on the same data; the worker finishes the payouts (a lease taken before the crash lasts 30 s).
    const second = startServer(env);
    await waitForHealth(port, second.output);
    second.proc.serverPid = childOf(second.proc.child.pid!);

    const statuses = async () => {
      const res = await call('GET', '/api/v1/withdrawals?limit=100', { cookie: business.cookie });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: Withdrawal[] }).items;
    };
    const until = Date.now() + 60_000;
    let items = await statuses();
    while (items.some((w) => w.status !== 'paid') && Date.now() < until) {
      await sleep(500);
      items = await statuses();
    }
    expect(
      items.map((w) => w.status),
      `after the restart (at the crash: ${JSON.stringify(crashState)})\n${second.output().slice(-3000)}`,
    ).toEqual(Array(WITHDRAWALS).fill('paid'));
    expect(items.map((w) => w.id).sort()).toEqual([...ids].sort());

    const db = await connectEmbedded(dataDir);
    try {
      const perWithdrawal = (
        await db.query<{ id: string; transfers: number; debits: number; settled: number; reversed: number }>(
          `SELECT w.id,
                  (SELECT count(*)::int FROM sandbox_transfers t WHERE t.reference = w.reference) AS transfers,
                  (SELECT count(*)::int FROM journal_entries j WHERE j.reference = 'withdrawal:' || w.id) AS debits,
                  (SELECT count(*)::int FROM journal_entries j
                    WHERE j.reference = 'withdrawal:' || w.id || ':settled') AS settled,
                  (SELECT count(*)::int FROM journal_entries j
                    WHERE j.reference = 'withdrawal:' || w.id || ':reversed') AS reversed
             FROM withdrawals w WHERE w.business_id = $1`,
          [business.id],
        )
      ).rows;
      expect(perWithdrawal).toHaveLength(WITHDRAWALS);
      expect(
        perWithdrawal.filter(
          (r) => r.transfers !== 1 || r.debits !== 1 || r.settled !== 1 || r.reversed !== 0,
        ),
      ).toEqual([]);
      // The bank saw each withdrawal's amount, once.
      const transferred = (
        await db.query<{ total: string; n: number }>(
          `SELECT coalesce(sum(t.amount), 0)::text AS total, count(*)::int AS n
             FROM sandbox_transfers t JOIN withdrawals w ON w.reference = t.reference
            WHERE w.business_id = $1`,
          [business.id],
        )
      ).rows[0]!;
      const withdrawn = Array.from({ length: WITHDRAWALS }, (_, i) => BigInt(amountOf(i))).reduce(
        (a, b) => a + b,
        0n,
      );
      expect(transferred).toEqual({ total: String(withdrawn), n: WITHDRAWALS });
      expect(
        (await db.query('SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount) <> 0')).rows,
      ).toEqual([]);
      const balance = (
        await db.query<{ balance: string }>(
          `SELECT coalesce(sum(p.amount), 0)::text AS balance
             FROM postings p JOIN ledger_accounts a ON a.id = p.ledger_account_id
            WHERE a.kind = 'business_wallet' AND a.owner_id = $1`,
          [business.id],
        )
      ).rows[0]!.balance;
      expect(BigInt(balance)).toBe(FUNDING - withdrawn);

      // Through the API, as the business sees it (its session survived the crash).
      const wallet = await call('GET', '/api/v1/wallet', { cookie: business.cookie });
      expect(wallet.status).toBe(200);
      expect(((await wallet.json()) as { balance: { amount: number } }).balance.amount).toBe(
        Number(FUNDING - withdrawn),
      );
    } finally {
      await db.end();
    }

    second.proc.child.kill('SIGTERM');
    const exit = await second.exited;
    expect(exit.code, `SIGTERM: ${JSON.stringify(exit)}\n${second.output().slice(-3000)}`).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 180_000);
});
