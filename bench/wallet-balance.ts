// ADR 022: one wallet with 10,000, 100,000 and 1,000,000 postings; the sum of all its postings (how a balance was
// read before migration 0017) against ledger_balance() once folded, and with 3,000 postings not folded yet.
// Not part of `npm run bench` (no target rests on it): `npx tsx bench/wallet-balance.ts`, about two minutes.
import { oneWallet } from './one-wallet';
const { pg, database, q, wallet: w, clearing: c } = await oneWallet('/tmp/wallet-growth-pg');
const time = async (text: string, values: unknown[], n = 20) => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await q(text, values);
  return Number(process.hrtime.bigint() - t) / 1e6 / n;
};
let have = 0;
for (const size of [10_000, 100_000, 1_000_000]) {
  const add = size - have;
  for (let done = 0; done < add; done += 100_000) {
    const k = Math.min(100_000, add - done);
    await q(
      `WITH e AS (INSERT INTO journal_entries (kind, reference) SELECT 'sale', 'g:' || gen_random_uuid() FROM generate_series(1, $1) RETURNING id)
             INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
             SELECT id, x.a, x.m, 'NGN' FROM e, (VALUES ($2::uuid, 100::bigint), ($3::uuid, -100::bigint)) x(a, m)`,
      [k, w, c],
    );
  }
  have = size;
  await q('VACUUM ANALYZE postings');
  await q('SELECT fold_ledger_balances()');
  const sum = await time('SELECT coalesce(sum(amount), 0) FROM postings WHERE ledger_account_id = $1', [w]);
  const folded = await time('SELECT ledger_balance($1)', [w], 200);
  const check = (
    await q(
      'SELECT ledger_balance($1)::text AS b, (SELECT sum(amount) FROM postings WHERE ledger_account_id = $1)::text AS s',
      [w],
    )
  ).rows[0];
  console.log(
    `${size} postings: sum of all ${sum.toFixed(2)} ms, ledger_balance ${folded.toFixed(3)} ms (${check.b} = ${check.s})`,
  );
}
await q(
  `WITH e AS (INSERT INTO journal_entries (kind, reference) SELECT 'sale', 'h:' || gen_random_uuid() FROM generate_series(1, 3000) RETURNING id)
         INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
         SELECT id, x.a, x.m, 'NGN' FROM e, (VALUES ($1::uuid, 100::bigint), ($2::uuid, -100::bigint)) x(a, m)`,
  [w, c],
);
console.log(
  '3,000 new entries not folded yet: ledger_balance',
  (await time('SELECT ledger_balance($1)', [w], 100)).toFixed(3),
  'ms',
);
const tf = process.hrtime.bigint();
await q('SELECT fold_ledger_balances()');
console.log('the fold of them:', (Number(process.hrtime.bigint() - tf) / 1e6).toFixed(1), 'ms');
await database.close();
await pg.stop();
