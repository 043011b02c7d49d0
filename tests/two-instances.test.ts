import { randomBytes, randomInt } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { loadConfig, type Config } from '../src/server/env';
import { sandboxSecret } from '../src/server/modules/orders/payments/payments';
import { signSandbox } from '../src/server/modules/orders/payments/sandbox.provider';
import type { Order } from '../src/shared/orders/schemas';
import { throwawayDatabase, type ThrowawayDatabase } from './fixtures/databases';
import { businessInput, DEFAULT_PASSWORD, userInput } from './fixtures/factories';
import { heldCard, sentGift } from './fixtures/gifts';
import { serverProcesses, sleep } from './fixtures/server-process';
import { fundedBusiness, TEST_PIN } from './fixtures/wallet';
import { registerAndLogin, type TestApp } from './fixtures/test-app';

/**
 * Two app processes (the real server, started from source with tsx) on ONE PostgreSQL, behind no shared
 * memory: whatever must hold for the whole service — the sign-in and code look-up limits, a payment webhook
 * taking effect once, each mail and each scheduled gift going out once — has to be counted in the database.
 * Requests go to both alternately and in parallel, over real HTTP. The instances get a database of their own
 * on the test PostgreSQL (created here, dropped afterwards), so their workers never pick up other test
 * files' mail, gifts or payments from the shared test database.
 */
const { startServer, waitForHealth, childOf, isAlive, tempDataDir } = serverProcesses();

const secrets = {
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  CODE_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
};

/** A fresh database on the test PostgreSQL; `drop()` removes it (and ends whatever still uses it). */
function freshDatabase(prefix: string): Promise<ThrowawayDatabase> {
  return throwawayDatabase(inject('databaseUrl'), `${prefix}_${process.pid}_${randomInt(1e9)}`);
}

describe('two instances starting at once on an empty database', () => {
  it('both apply the migrations (one waits for the other) and neither fails', async () => {
    const database = await freshDatabase('giftmart_two_migrate');
    const first = connectDatabase(database.url, { max: 2 });
    const second = connectDatabase(database.url, { max: 2 });
    try {
      const outcomes = await Promise.allSettled([runMigrations(first.db), runMigrations(second.db)]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const applied = await first.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      const journal = (await import('../src/server/db/migrations/meta/_journal.json')) as {
        default: { entries: unknown[] };
      };
      expect(applied.rows[0]!.n, 'each migration recorded once').toBe(journal.default.entries.length);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});

/** A real SMTP server on a free port that keeps every message it is handed. */
async function mailSink() {
  const received: { messageId: string; to: string[]; subject: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            messageId: parsed.messageId ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A made-up client address (the instances trust one proxy hop), so no other test spends this one's budget. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

interface Instance {
  name: string;
  port: number;
  output(): string;
}

/** A browser (or till) at one address talking to an instance: Origin as a browser sends it, its IP forwarded. */
function call(
  instance: Instance,
  method: string,
  url: string,
  options: { cookie?: string; json?: unknown; form?: Record<string, string>; raw?: string; ip?: string } = {},
) {
  const base = `http://127.0.0.1:${instance.port}`;
  const headers: Record<string, string> = { origin: base, 'x-forwarded-for': options.ip ?? freshIp() };
  if (options.cookie) headers.cookie = options.cookie;
  let body = options.raw;
  if (options.raw !== undefined) headers['content-type'] = 'application/json';
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  return fetch(`${base}${url}`, { method, headers, body, redirect: 'manual' });
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('giftmart_session='));
  if (!cookie) throw new Error(`no session cookie (${response.status})`);
  return cookie.split(';')[0]!;
}

/** Polls `check` until it answers true (or the time is up, when the last answer is returned). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await sleep(100);
  }
}

const count = (values: number[], wanted: number) => values.filter((v) => v === wanted).length;

describe('two instances on one database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let sink: Awaited<ReturnType<typeof mailSink>>;
  let db: pg.Pool;
  let prep: TestApp;
  const instances: Instance[] = [];
  /** How many job runs were waiting at the gate when it opened (both instances' three jobs: 6). */
  let gatedJobs = 0;
  let gate: pg.Client | undefined;
  const servers: { pid?: number; tsxPid: number; exited: Promise<unknown> }[] = [];
  /** What was set up before the instances started, for their start-up jobs to race over. */
  const work = {
    scheduledGifts: [] as { id: string; cardId: string; recipientEmail: string }[],
    expiredCardId: '',
    expiringCardId: '',
    /** A business with ₦10,000 in its wallet, its PIN and a bank account. */
    payee: { id: '', cookie: '' },
  };

  beforeAll(async () => {
    database = await freshDatabase('giftmart_two');
    sink = await mailSink();
    db = new pg.Pool({ connectionString: database.url, max: 3 });

    // The set-up goes through the app in this process (quicker than HTTP), on the instances' database.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: tempDataDir('giftmart-two-prep-'),
      ...secrets,
    });
    const prepDatabase = connectDatabase(database.url, { max: 5 });
    await runMigrations(prepDatabase.db);
    const app = await buildApp({ config, db: prepDatabase.db, logger: false });
    await app.ready();
    prep = {
      app,
      database: prepDatabase,
      config,
      async close() {
        await app.close();
        await prepDatabase.close();
      },
    };

    // Three gifts scheduled for later, then made due: both instances' gift jobs find them at start-up.
    for (let i = 0; i < 3; i += 1) {
      const { sender, card } = await heldCard(prep);
      const friend = await registerAndLogin(app, 'user');
      const gift = await sentGift(sender, card.id, {
        recipient: friend.input.email,
        deliverAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
      });
      work.scheduledGifts.push({ id: gift.id, cardId: card.id, recipientEmail: friend.input.email });
    }
    await db.query("UPDATE gifts SET deliver_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])", [
      work.scheduledGifts.map((g) => g.id),
    ]);
    // A card past its expiry and one expiring in two days: one expiry and one reminder, whoever runs the job.
    work.expiredCardId = (await heldCard(prep, 500_000, 12)).card.id;
    work.expiringCardId = (await heldCard(prep, 500_000, 12)).card.id;
    await db.query("UPDATE purchased_cards SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      work.expiredCardId,
    ]);
    await db.query("UPDATE purchased_cards SET expires_at = now() + interval '2 days' WHERE id = $1", [
      work.expiringCardId,
    ]);
    const payee = await fundedBusiness(prep, 1_000_000n);
    work.payee = { id: payee.id, cookie: payee.cookie };
    await prep.close();
    // The jobs' tables stay locked until both instances are up and their first runs are waiting on the
    // lock: then both go at the same moment (a start-up a few milliseconds apart would let one finish first).
    gate = new pg.Client({ connectionString: database.url });
    gate.on('error', () => undefined);
    await gate.connect();
    await gate.query('BEGIN');
    await gate.query('LOCK TABLE gifts, purchased_cards, mail_outbox IN ACCESS EXCLUSIVE MODE');

    // Both at once: their migrations, start-up jobs and first mail passes overlap.
    const env = {
      DATABASE_URL: database.url,
      ...secrets,
      TRUST_PROXY: '1',
      SMTP_URL: sink.url,
      MAIL_POLL_MS: '100',
      SANDBOX_WEBHOOK_DELAY_MS: '0',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '5',
      CODE_LOOKUPS_PER_MINUTE_PER_ACCOUNT: '6',
      BALANCE_CHECKS_PER_MINUTE_PER_IP: '6',
    };
    const started = (['one', 'two'] as const).map((name) => {
      const dataDir = tempDataDir(`giftmart-two-${name}-`);
      return { name, dataDir };
    });
    const ports = await Promise.all(started.map(() => freePortInRange()));
    const launched = started.map(({ name, dataDir }, i) => {
      const server = startServer({ ...env, PORT: String(ports[i]), DATA_DIR: dataDir });
      servers.push({ tsxPid: server.proc.child.pid!, exited: server.exited });
      return { name, port: ports[i]!, server };
    });
    await Promise.all(launched.map(({ port, server }) => waitForHealth(port, server.output, 90_000)));
    launched.forEach(({ name, port, server }, i) => {
      const pid = childOf(server.proc.child.pid!);
      server.proc.serverPid = pid;
      servers[i]!.pid = pid;
      instances.push({ name, port, output: server.output });
    });
    // Each instance's gift, expiry and mail job waits at the gate.
    const waiting = async () =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
          [database.name],
        )
      ).rows[0]!.n;
    gatedJobs = (await eventually(async () => (await waiting()) >= 6, 20_000)) ? 6 : await waiting();
    await gate.query('COMMIT');
  }, 180_000);

  afterAll(async () => {
    // Stopped like a deployment stops them (SIGTERM), then whatever is left is killed; the fixture's own
    // afterAll SIGKILLs anything still there after this.
    await gate?.end().catch(() => undefined);
    for (const server of servers) {
      // A server that never became healthy has not been looked up yet: find it, or only tsx would be killed.
      server.pid ??= childOf(server.tsxPid);
      for (const pid of [server.pid, server.tsxPid]) if (pid && isAlive(pid)) process.kill(pid, 'SIGTERM');
    }
    await Promise.race([Promise.all(servers.map((s) => s.exited)), sleep(10_000)]);
    for (const server of servers) {
      for (const pid of [server.pid, server.tsxPid]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    await db?.end();
    await sink?.close();
    await database?.drop();
  }, 60_000);

  const [one, two] = [() => instances[0]!, () => instances[1]!];
  const alternate = (i: number) => instances[i % 2]!;

  async function signUp(instance: Instance, role: 'user' | 'business') {
    const input = role === 'user' ? userInput() : businessInput();
    const registered = await call(
      instance,
      'POST',
      role === 'user' ? '/api/v1/users' : '/api/v1/businesses',
      {
        json: input,
      },
    );
    expect(registered.status, await registered.clone().text()).toBe(201);
    const ip = freshIp();
    const login = await call(instance, 'POST', '/api/v1/auth/login', {
      json: { email: input.email, password: DEFAULT_PASSWORD, role },
      ip,
    });
    expect(login.status).toBe(200);
    return { input, id: ((await registered.json()) as { id: string }).id, cookie: sessionCookie(login), ip };
  }

  it('the sign-in limit is one count for both: of 12 wrong passwords spread over both, 5 are checked', async () => {
    const victim = await signUp(one(), 'user');
    const ip = freshIp();
    const attempt = (instance: Instance, password: string) =>
      call(instance, 'POST', '/api/v1/auth/login', {
        json: { email: victim.input.email, password, role: 'user' },
        ip,
      }).then((res) => res.status);

    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attempt(alternate(i), `wrong-password-${i}`)),
    );
    expect(count(statuses, 401), `checked: ${statuses.join(' ')}`).toBe(5);
    expect(count(statuses, 429), `refused: ${statuses.join(' ')}`).toBe(7);
    // Each instance refused some of its own six: neither counted only its own tries.
    expect(statuses.filter((_, i) => i % 2 === 0)).toContain(429);
    expect(statuses.filter((_, i) => i % 2 === 1)).toContain(429);

    // Locked on both, for a wrong and for the right password alike.
    for (const instance of instances) {
      expect(await attempt(instance, 'wrong-again')).toBe(429);
      expect(await attempt(instance, DEFAULT_PASSWORD)).toBe(429);
    }
  });

  it('the sign-in limit also holds when the wrong passwords go one by one, alternately', async () => {
    const victim = await signUp(two(), 'user');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await call(alternate(i), 'POST', '/api/v1/auth/login', {
        json: { email: victim.input.email, password: `nope-${i}`, role: 'user' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('the till look-up and balance-check limits are one count for both instances', async () => {
    const till = await signUp(one(), 'business');
    const lookups = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        call(alternate(i), 'POST', '/api/v1/card-lookups', {
          cookie: till.cookie,
          json: { code: `GM-${randomBytes(6).toString('hex').toUpperCase()}` },
        }).then((res) => res.status),
      ),
    );
    expect(count(lookups, 429), `look-ups: ${lookups.join(' ')}`).toBe(8);
    expect(lookups.filter((s) => s !== 429 && s >= 500)).toEqual([]);
    expect(lookups.filter((_, i) => i % 2 === 0)).toContain(429);
    expect(lookups.filter((_, i) => i % 2 === 1)).toContain(429);

    const ip = freshIp();
    const checks = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        call(alternate(i), 'POST', '/api/v1/balance-checks', {
          json: { code: `GM-${randomBytes(6).toString('hex').toUpperCase()}` },
          ip,
        }).then((res) => res.status),
      ),
    );
    expect(count(checks, 429), `balance checks: ${checks.join(' ')}`).toBe(8);
    expect(checks.filter((s) => s >= 500)).toEqual([]);
  });

  it('the same payment webhook delivered to both instances at once, ten times, issues one card', async () => {
    const seller = await signUp(one(), 'business');
    const buyer = await signUp(two(), 'user');
    const design = await call(one(), 'POST', '/api/v1/gift-cards', {
      cookie: seller.cookie,
      json: { amount: 250_000, colour: '#4f46e5' },
    });
    expect(design.status).toBe(201);
    const ordered = await call(two(), 'POST', '/api/v1/orders', {
      cookie: buyer.cookie,
      json: { giftCardId: ((await design.json()) as { id: string }).id },
    });
    expect(ordered.status).toBe(201);
    const order = (await ordered.json()) as Order;

    const raw = JSON.stringify({
      event: 'payment.succeeded',
      data: {
        reference: order.reference,
        amount: String(order.amount.amount),
        currency: order.amount.currency,
      },
    });
    const signature = signSandbox(sandboxSecret(secrets as Config), raw);
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const base = `http://127.0.0.1:${alternate(i).port}`;
        const res = await fetch(`${base}/api/v1/payments/sandbox/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
          body: raw,
        });
        return { status: res.status, result: ((await res.json()) as { result?: string }).result };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.result === 'issued')).toHaveLength(1);
    expect(answers.filter((a) => a.result === 'already-paid')).toHaveLength(9);

    const cards = await db.query('SELECT id FROM purchased_cards WHERE order_id = $1', [order.id]);
    expect(cards.rows).toHaveLength(1);
    const entries = await db.query<{ n: number; postings: number; total: string }>(
      `SELECT count(DISTINCT je.id)::int AS n, count(p.id)::int AS postings, coalesce(sum(p.amount), 0)::text AS total
         FROM journal_entries je LEFT JOIN postings p ON p.entry_id = je.id
        WHERE je.reference = $1`,
      [`order:${order.id}`],
    );
    expect(entries.rows[0]!.n, 'one ledger entry for the sale').toBe(1);
    expect(entries.rows[0]!.postings).toBeGreaterThanOrEqual(2);
    expect(entries.rows[0]!.total, 'the entry balances').toBe('0');
  });

  it("checkout payments confirmed by both instances' sandbox workers: each order paid once", async () => {
    const seller = await signUp(two(), 'business');
    const design = await call(two(), 'POST', '/api/v1/gift-cards', {
      cookie: seller.cookie,
      json: { amount: 120_000, colour: '#0f766e' },
    });
    const designId = ((await design.json()) as { id: string }).id;
    const orders: Order[] = [];
    for (let i = 0; i < 6; i += 1) {
      const buyer = await signUp(alternate(i), 'user');
      const res = await call(alternate(i), 'POST', '/api/v1/orders', {
        cookie: buyer.cookie,
        json: { giftCardId: designId },
      });
      expect(res.status).toBe(201);
      orders.push((await res.json()) as Order);
    }
    const paid = await Promise.all(
      orders.map((order, i) =>
        call(alternate(i + 1), 'POST', order.checkoutUrl!, {
          form: { cardNumber: '4084084084084081', expiry: '12/30', cvv: '408', action: 'pay' },
        }).then((res) => res.status),
      ),
    );
    expect(paid).toEqual(Array(6).fill(303));
    const ids = orders.map((o) => o.id);
    const allPaid = await eventually(async () => {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM orders WHERE id = ANY($1::uuid[]) AND status = 'paid'",
        [ids],
      );
      return rows[0]!.n === ids.length;
    });
    expect(allPaid, 'every order paid by the workers').toBe(true);
    const cards = await db.query<{ n: number }>(
      `SELECT count(pc.id)::int AS n FROM orders o LEFT JOIN purchased_cards pc ON pc.order_id = o.id
        WHERE o.id = ANY($1::uuid[]) GROUP BY o.id`,
      [ids],
    );
    expect(cards.rows.map((r) => r.n)).toEqual(Array(6).fill(1));
    const entries = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM journal_entries WHERE reference = ANY($1::text[]) AND kind = 'sale'",
      [ids.map((id) => `order:${id}`)],
    );
    expect(entries.rows[0]!.n).toBe(6);
  });

  it('the background jobs of both instances deliver each scheduled gift, expiry and mail once', async () => {
    expect(gatedJobs, "both instances' gift, expiry and mail jobs started together").toBe(6);
    const giftIds = work.scheduledGifts.map((g) => g.id);
    const settled = await eventually(async () => {
      const gifts = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM gifts WHERE id = ANY($1::uuid[]) AND status = 'pending'",
        [giftIds],
      );
      const queued = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'queued'",
      );
      return gifts.rows[0]!.n === giftIds.length && queued.rows[0]!.n === 0;
    });
    expect(settled, 'gifts sent and the outbox empty').toBe(true);

    for (const gift of work.scheduledGifts) {
      const mails = await db.query<{ id: string }>(
        "SELECT id FROM mail_outbox WHERE kind = 'gift_received' AND lower(to_address) = lower($1)",
        [gift.recipientEmail],
      );
      expect(mails.rows, `gift mail for ${gift.id}`).toHaveLength(1);
      const notes = await db.query(
        `SELECT n.id FROM notifications n JOIN accounts a ON a.id = n.account_id
          WHERE n.kind = 'gift_received' AND lower(a.email) = lower($1)`,
        [gift.recipientEmail],
      );
      expect(notes.rows, `gift notification for ${gift.id}`).toHaveLength(1);
    }

    const expiry = await db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM card_activities WHERE purchased_card_id = $1 AND kind = 'expire'
        GROUP BY kind`,
      [work.expiredCardId],
    );
    expect(expiry.rows).toEqual([{ kind: 'expire', n: 1 }]);
    const reminders = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications n JOIN purchased_cards pc ON pc.owner_id = n.account_id
        WHERE pc.id = $1 AND n.kind = 'card_expiring'`,
      [work.expiringCardId],
    );
    expect(reminders.rows[0]!.n).toBe(1);

    // Every mail in the outbox reached the SMTP server exactly once (by its Message-ID).
    const outbox = await db.query<{ id: string }>("SELECT id FROM mail_outbox WHERE status = 'sent'");
    const byId = new Map<string, number>();
    for (const mail of sink.received) byId.set(mail.messageId, (byId.get(mail.messageId) ?? 0) + 1);
    const twice = [...byId].filter(([, n]) => n > 1);
    expect(twice, 'mails sent more than once').toEqual([]);
    const missing = outbox.rows.filter((row) => !byId.has(`<${row.id}@giftmart>`));
    expect(missing, 'mails marked sent that never arrived').toEqual([]);
    expect(outbox.rows.length).toBeGreaterThanOrEqual(work.scheduledGifts.length + 10);
  });

  it('withdrawals asked of both instances at once never overdraw, and both payout workers pay each once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(alternate(i), 'POST', '/api/v1/withdrawals', {
          cookie: work.payee.cookie,
          json: { amount: 300_000, pin: TEST_PIN },
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { id?: string } })),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted, JSON.stringify(answers)).toHaveLength(3);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const ids = accepted.map((a) => a.body.id!);

    const settled = await eventually(async () => {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM withdrawals WHERE id = ANY($1::uuid[]) AND status = 'paid'",
        [ids],
      );
      return rows[0]!.n === ids.length;
    });
    expect(settled, 'every withdrawal paid').toBe(true);
    const { rows } = await db.query<{ transfers: number; debits: number; settled: number; reversed: number }>(
      `SELECT (SELECT count(*)::int FROM sandbox_transfers t WHERE t.reference = w.reference) AS transfers,
              (SELECT count(*)::int FROM journal_entries j WHERE j.reference = 'withdrawal:' || w.id) AS debits,
              (SELECT count(*)::int FROM journal_entries j WHERE j.reference = 'withdrawal:' || w.id || ':settled') AS settled,
              (SELECT count(*)::int FROM journal_entries j WHERE j.reference = 'withdrawal:' || w.id || ':reversed') AS reversed
         FROM withdrawals w WHERE w.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows).toEqual(Array(3).fill({ transfers: 1, debits: 1, settled: 1, reversed: 0 }));
    const wallet = await call(two(), 'GET', '/api/v1/wallet', { cookie: work.payee.cookie });
    expect(((await wallet.json()) as { balance: { amount: number } }).balance.amount).toBe(100_000);
  });

  it('a session made on one instance works on the other, and logging out on one ends it on both', async () => {
    const person = await signUp(one(), 'user');
    const onTwo = await call(two(), 'GET', '/api/v1/auth/session', { cookie: person.cookie });
    expect(onTwo.status).toBe(200);
    const out = await call(two(), 'DELETE', '/api/v1/auth/session', { cookie: person.cookie });
    expect(out.status).toBe(204);
    expect((await call(one(), 'GET', '/api/v1/auth/session', { cookie: person.cookie })).status).toBe(401);
  });

  it('a notification written through one instance reaches a live stream open on the other', async () => {
    const seller = await signUp(one(), 'business');
    const holder = await signUp(two(), 'user');
    const design = await call(one(), 'POST', '/api/v1/gift-cards', {
      cookie: seller.cookie,
      json: { amount: 300_000, colour: '#9333ea' },
    });
    const ordered = await call(two(), 'POST', '/api/v1/orders', {
      cookie: holder.cookie,
      json: { giftCardId: ((await design.json()) as { id: string }).id },
    });
    const order = (await ordered.json()) as Order;
    const raw = JSON.stringify({
      event: 'payment.succeeded',
      data: {
        reference: order.reference,
        amount: String(order.amount.amount),
        currency: order.amount.currency,
      },
    });
    await fetch(`http://127.0.0.1:${one().port}/api/v1/payments/sandbox/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': signSandbox(sandboxSecret(secrets as Config), raw),
      },
      body: raw,
    });
    const paid = (await (
      await call(two(), 'GET', `/api/v1/orders/${order.id}`, { cookie: holder.cookie })
    ).json()) as Order;
    const code = (
      (await (
        await call(two(), 'POST', `/api/v1/purchased-cards/${paid.purchasedCardId}/code`, {
          cookie: holder.cookie,
        })
      ).json()) as { code: string }
    ).code;

    const abort = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${two().port}/api/v1/notifications/stream`, {
      headers: { cookie: holder.cookie },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const counts = () =>
      [...text.matchAll(/event: unread\ndata: (\{.*\})/g)].map((m) => JSON.parse(m[1]!).unread);
    const readUntil = async (done: () => boolean, timeoutMs = 15_000) => {
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        while (!done()) {
          const { value, done: ended } = await reader.read();
          if (ended) break;
          text += decoder.decode(value, { stream: true });
        }
      } finally {
        clearTimeout(timer);
      }
    };
    try {
      await readUntil(() => counts().length > 0);
      const before = counts()[0] as number;
      // The till (on instance one) spends from the card: its holder is told, live on instance two.
      const spent = await call(one(), 'POST', '/api/v1/redemptions', {
        cookie: seller.cookie,
        json: { code, amount: 1_000 },
      });
      expect(spent.status, await spent.clone().text()).toBe(201);
      await readUntil(() => counts().some((n) => n > before));
      expect(counts().at(-1)).toBeGreaterThan(before);
    } finally {
      abort.abort();
    }
  });
});

const taken = new Set<number>();

/** A free port in 3201–3220 (this helper's range), or one the OS picks when all are taken. */
async function freePortInRange(): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const actual = (server.address() as AddressInfo).port;
        server.close(() => resolve(actual));
      });
    });
  const start = 3201 + randomInt(20);
  for (let i = 0; i < 20; i += 1) {
    const port = await tryPort(3201 + ((start - 3201 + i) % 20));
    if (port && !taken.has(port)) {
      taken.add(port);
      return port;
    }
  }
  return (await tryPort(0))!;
}
