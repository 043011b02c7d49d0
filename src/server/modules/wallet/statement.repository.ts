import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db, DbOrTx } from '../../db/client';
import { orders } from '../../db/schema/orders';
import { journalEntries, ledgerAccounts, postings, withdrawals } from '../../db/schema/wallet';

/**
 * The business's wallet statement: every posting on its wallet account, newest first in the ledger's own order
 * (its transaction, `xact`, then its id), with the balance after it, counted down from the wallet's balance
 * now (`ledger_balance()`, in the same statement's snapshot): a line's balance is the balance less every
 * posting after it (ADR 034). The postings are read newest first from the cursor along
 * `postings_ledger_account_xact_idx`, each with the sum of those read before it, and the read stops when the
 * page is full: the first page, the usual one, reads only its own lines. A page below a cursor adds the sum of
 * the postings from the cursor up, read from that index alone (it carries the amount). The days' filter
 * chooses among the lines read, after their sum: a line of another day still counts for the lines below it
 * (an entry's time and its transaction's order can disagree at a day's edge), so a line's balance is the same
 * in any view.
 */
export interface StatementRow {
  id: string;
  created_at: Date | string;
  cursor_xact: string;
  entry_kind: string;
  entry_reference: string;
  amount: string;
  currency: string;
  balance_after: string;
  wallet_balance: string;
  fee: string | null;
  order_reference: string | null;
  order_amount: string | null;
  withdrawal_reference: string | null;
}

export interface StatementFilter {
  after?: { xact: string; id: string };
  from?: string;
  before?: string;
}

const UUID_IN_REFERENCE = `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`;

function statementQuery(businessId: string, currency: string, filter: StatementFilter, limit?: number): SQL {
  const days: SQL[] = [];
  if (filter.from) days.push(sql`e.created_at >= ${filter.from}::timestamptz`);
  if (filter.before) days.push(sql`e.created_at < ${filter.before}::timestamptz`);
  const after = filter.after && sql`(${filter.after.xact}::xid8, ${filter.after.id}::uuid)`;
  return sql`
    WITH wallet AS MATERIALIZED (
      SELECT la.id, ledger_balance(la.id) AS balance FROM ${ledgerAccounts} la
       WHERE la.kind = 'business_wallet' AND la.owner_id = ${businessId} AND la.currency = ${currency}
    ),
    lines AS (
      SELECT p.id, p.xact, p.entry_id, p.amount, p.currency,
             coalesce(sum(p.amount) OVER (ORDER BY p.xact DESC, p.id DESC
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS newer
        FROM ${postings} p
       WHERE p.ledger_account_id = (SELECT id FROM wallet) ${after ? sql`AND (p.xact, p.id) < ${after}` : sql``}
       ORDER BY p.xact DESC, p.id DESC
    )
    SELECT l.id, e.created_at, l.xact::text AS cursor_xact, e.kind AS entry_kind, e.reference AS entry_reference,
           l.amount::text AS amount, l.currency,
           ((SELECT balance FROM wallet) - ${
             after
               ? sql`(SELECT coalesce(sum(q.amount), 0) FROM ${postings} q
                 WHERE q.ledger_account_id = (SELECT id FROM wallet) AND (q.xact, q.id) >= ${after})`
               : sql`0`
           }
             - l.newer)::text AS balance_after,
           (SELECT balance FROM wallet)::text AS wallet_balance,
           (SELECT p2.amount::text FROM ${postings} p2
              JOIN ${ledgerAccounts} la2 ON la2.id = p2.ledger_account_id
             WHERE p2.entry_id = l.entry_id AND la2.kind = 'platform_revenue' LIMIT 1) AS fee,
           o.reference AS order_reference, o.amount::text AS order_amount,
           wd.reference AS withdrawal_reference
    FROM lines l
    JOIN ${journalEntries} e ON e.id = l.entry_id
    LEFT JOIN ${orders} o
      ON e.reference LIKE '%order:%'
     AND o.id = substring(e.reference from ${UUID_IN_REFERENCE})::uuid
    LEFT JOIN ${withdrawals} wd
      ON e.reference LIKE 'withdrawal:%'
     AND wd.id = substring(e.reference from ${UUID_IN_REFERENCE})::uuid
    ${days.length ? sql`WHERE ${sql.join(days, sql` AND `)}` : sql``}
    ORDER BY l.xact DESC, l.id DESC
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
