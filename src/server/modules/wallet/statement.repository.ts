import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db, DbOrTx } from '../../db/client';
import { orders } from '../../db/schema/orders';
import { journalEntries, ledgerAccounts, postings, withdrawals } from '../../db/schema/wallet';

/**
 * The business's wallet statement: every posting on its wallet account with the balance after it, a
 * running sum over the ledger lines (oldest first) computed by a window function, so the newest line's
 * balance is the wallet's balance. Lines are ordered by their entry's time, then the posting's id.
 */
export interface StatementRow {
  id: string;
  created_at: Date | string;
  cursor_time: string;
  entry_kind: string;
  entry_reference: string;
  amount: string;
  currency: string;
  balance_after: string;
  fee: string | null;
  order_reference: string | null;
  order_amount: string | null;
  withdrawal_reference: string | null;
}

export interface StatementFilter {
  after?: { time: string; id: string };
  from?: string;
  before?: string;
}

const UUID_IN_REFERENCE = `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`;

function statementQuery(businessId: string, currency: string, filter: StatementFilter, limit?: number): SQL {
  const conditions: SQL[] = [];
  if (filter.from) conditions.push(sql`l.created_at >= ${filter.from}::timestamptz`);
  if (filter.before) conditions.push(sql`l.created_at < ${filter.before}::timestamptz`);
  if (filter.after) {
    conditions.push(
      sql`(l.created_at, l.id) < (${filter.after.time}::timestamptz, ${filter.after.id}::uuid)`,
    );
  }
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  return sql`
    WITH lines AS (
      SELECT p.id, p.entry_id, p.amount, p.currency, e.kind AS entry_kind, e.reference AS entry_reference,
             e.created_at,
             sum(p.amount) OVER (ORDER BY e.created_at, p.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
               AS balance_after
      FROM ${postings} p
      JOIN ${journalEntries} e ON e.id = p.entry_id
      JOIN ${ledgerAccounts} la ON la.id = p.ledger_account_id
      WHERE la.kind = 'business_wallet' AND la.owner_id = ${businessId} AND la.currency = ${currency}
    )
    SELECT l.id, l.created_at,
           to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time,
           l.entry_kind, l.entry_reference, l.amount::text AS amount, l.currency,
           l.balance_after::text AS balance_after,
           (SELECT p2.amount::text FROM ${postings} p2
              JOIN ${ledgerAccounts} la2 ON la2.id = p2.ledger_account_id
             WHERE p2.entry_id = l.entry_id AND la2.kind = 'platform_revenue' LIMIT 1) AS fee,
           o.reference AS order_reference, o.amount::text AS order_amount,
           w.reference AS withdrawal_reference
    FROM lines l
    LEFT JOIN ${orders} o
      ON l.entry_reference LIKE '%order:%'
     AND o.id = substring(l.entry_reference from ${UUID_IN_REFERENCE})::uuid
    LEFT JOIN ${withdrawals} w
      ON l.entry_reference LIKE 'withdrawal:%'
     AND w.id = substring(l.entry_reference from ${UUID_IN_REFERENCE})::uuid
    ${where}
    ORDER BY l.created_at DESC, l.id DESC
    ${limit === undefined ? sql`` : sql`LIMIT ${limit}`}
  `;
}

export async function listStatement(
  db: DbOrTx,
  businessId: string,
  currency: string,
  filter: StatementFilter,
  limit: number,
): Promise<StatementRow[]> {
  const result = await db.execute<StatementRow & Record<string, unknown>>(
    statementQuery(businessId, currency, filter, limit),
  );
  return result.rows;
}

const dialect = new PgDialect();
const BATCH = 1000;

/**
 * The whole statement (within the filter) through a server-side cursor: one query, read 1,000 lines at a
 * time in a read-only transaction, so memory stays flat however long the statement. Stopping early (the
 * client went away) ends the transaction and gives the connection back.
 */
export async function* streamStatement(
  db: Db,
  businessId: string,
  currency: string,
  filter: StatementFilter,
): AsyncGenerator<StatementRow[]> {
  const query = dialect.sqlToQuery(statementQuery(businessId, currency, filter));
  const client = await (db as Db & { $client: pg.Pool }).$client.connect();
  let healthy = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE statement_lines NO SCROLL CURSOR FOR ${query.sql}`, query.params);
    for (;;) {
      const batch = await client.query<StatementRow>(`FETCH ${BATCH} FROM statement_lines`);
      if (batch.rows.length > 0) yield batch.rows;
      if (batch.rows.length < BATCH) break;
    }
    healthy = true;
  } finally {
    try {
      await client.query(healthy ? 'COMMIT' : 'ROLLBACK');
      client.release();
    } catch {
      client.release(true);
    }
  }
}
