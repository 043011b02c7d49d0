import { rmSync } from 'node:fs';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';

/**
 * The start of the benches that grow one wallet's history (wallet-balance.ts, statement.ts): a fresh embedded
 * PostgreSQL in `dataDir`, migrated, with one business, its wallet and the payment clearing account.
 */
export async function oneWallet(dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true });
  const pg = await startEmbeddedPostgres({ dataDir, database: 'bench' });
  const database = connectDatabase(pg.url, { max: 2 });
  await runMigrations(database.db);
  const q = (text: string, values: unknown[] = []) => database.pool.query(text, values);
  const business = (
    await q(`INSERT INTO accounts (role, name, email, username, phone, password_hash)
             VALUES ('business', 'Growth', 'growth@example.com', 'growth', '08000000000', 'x') RETURNING id`)
  ).rows[0].id as string;
  const wallet = (
    await q(
      `INSERT INTO ledger_accounts (kind, owner_id, currency) VALUES ('business_wallet', $1, 'NGN') RETURNING id`,
      [business],
    )
  ).rows[0].id as string;
  const clearing = (
    await q(`INSERT INTO ledger_accounts (kind, currency) VALUES ('payment_clearing', 'NGN') RETURNING id`)
  ).rows[0].id as string;
  return { pg, database, q, business, wallet, clearing };
}
