// Issue 14: the wallet statement's page at 10,000, 100,000 and 1,000,000 lines. One wallet's sales written ten
// entries to a transaction (as the sale statement writes them), then GET /wallet/statement's query timed as
// the API runs it (listStatement): the first page, a page 1,000 and 100,000 lines down (by cursor), and one
// day's page a week before the newest line. Not part of `npm run bench` (no target rests on it):
// `npx tsx bench/statement.ts`, about three minutes.
import { listStatement, type StatementFilter } from '../src/server/modules/wallet/statement.repository';
import { oneWallet } from './one-wallet';

const { pg, database, q, business, wallet, clearing } = await oneWallet('/tmp/statement-growth-pg');

/** Milliseconds per call (median of `n`) of the statement page for `filter`, and the page it answered. */
async function time(filter: StatementFilter, n = 21) {
  const runs: number[] = [];
  let rows: Awaited<ReturnType<typeof listStatement>> = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    rows = await listStatement(database.db, business, 'NGN', filter, 21);
    runs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  runs.sort((a, b) => a - b);
  return { ms: runs[Math.floor(n / 2)]!, rows };
}

/** The line `depth` lines down from the newest (its cursor's parts). */
async function lineAt(depth: number) {
  const row = (
    await q(
      `SELECT xact::text AS xact, id FROM postings WHERE ledger_account_id = $1
        ORDER BY xact DESC, id DESC OFFSET $2 LIMIT 1`,
      [wallet, depth],
    )
  ).rows[0] as { xact: string; id: string };
  return row;
}

const SECONDS_APART = 30;
let have = 0;
for (const size of [10_000, 100_000, 1_000_000]) {
  // Ten entries to a transaction, oldest first, SECONDS_APART apart and ending now.
  for (let from = have; from < size; from += 10) {
    await q(
      `WITH e AS (
         INSERT INTO journal_entries (kind, reference, created_at)
         SELECT 'sale', 'g:' || gen_random_uuid(), now() - make_interval(secs => ($2::int - g) * ${SECONDS_APART})
           FROM generate_series($1::int, $1::int + 9) g RETURNING id)
       INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
       SELECT id, x.a, x.m, 'NGN' FROM e, (VALUES ($3::uuid, 100::bigint), ($4::uuid, -100::bigint)) x(a, m)`,
      [from, 1_000_000, wallet, clearing],
    );
  }
  have = size;
  await q('VACUUM ANALYZE postings, journal_entries');
  await q('SELECT fold_ledger_balances()');
  const first = await time({});
  const down1k = await time({ after: await lineAt(1_000) });
  const down100k = size > 100_000 ? await time({ after: await lineAt(100_000) }, 5) : null;
  const newest = (await q(`SELECT max(created_at) AS t FROM journal_entries`)).rows[0].t as Date;
  const dayStart = new Date(newest.getTime() - 7 * 86_400_000);
  const day = await time(
    { from: dayStart.toISOString(), before: new Date(dayStart.getTime() + 86_400_000).toISOString() },
    size > 100_000 ? 5 : 21,
  );
  // The newest line's balance is the wallet's; each line's, the one above it less that one's amount.
  const lines = first.rows;
  const consistent =
    lines[0]!.balance_after === lines[0]!.wallet_balance &&
    lines.every(
      (l, i) =>
        i === 0 ||
        BigInt(l.balance_after) === BigInt(lines[i - 1]!.balance_after) - BigInt(lines[i - 1]!.amount),
    );
  console.log(
    `${size.toLocaleString('en')} lines: first page ${first.ms.toFixed(2)} ms, 1,000 down ${down1k.ms.toFixed(2)} ms` +
      (down100k ? `, 100,000 down ${down100k.ms.toFixed(2)} ms` : '') +
      `, a day a week before the newest ${day.ms.toFixed(2)} ms (${day.rows.length} lines)` +
      `; balances ${consistent ? 'consistent' : 'NOT CONSISTENT'}`,
  );
}
await database.close();
await pg.stop();
