import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectDatabase, rowsByKey, type Database, type DbOrTx } from './client';
import { rateLimits } from './schema/rate-limits';

const open: Database[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((database) => database.close()));
});

function database(): Database {
  const opened = connectDatabase(inject('databaseUrl'), { max: 1 });
  open.push(opened);
  return opened;
}

/** The generic plan (what a prepared statement keeps) of `query`, as EXPLAIN prints it. */
async function genericPlan(tx: DbOrTx, query: { sql: string; params: unknown[] }): Promise<string> {
  await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
  await tx.execute(sql.raw(`PREPARE rows_by_key_test AS ${query.sql}`));
  const plan = await tx.execute<{ 'QUERY PLAN': string }>(
    sql.raw(
      `EXPLAIN EXECUTE rows_by_key_test(${query.params.map((p) => (typeof p === 'object' ? `'{a,b}'` : String(p))).join(', ')})`,
    ),
  );
  await tx.execute(sql.raw('DEALLOCATE rows_by_key_test'));
  return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
}

/**
 * Runs `check` on a never-analyzed, nearly empty copy of rate_limits (a temporary table of that name comes
 * first on the search path): what a new database's tables look like when its statements are first prepared.
 */
async function onFreshTable(check: (tx: DbOrTx) => Promise<void>): Promise<void> {
  const { db } = database();
  await db
    .transaction(async (tx) => {
      await tx.execute(
        sql`CREATE TEMP TABLE rate_limits (LIKE public.rate_limits INCLUDING ALL) ON COMMIT DROP`,
      );
      await tx.execute(
        sql`INSERT INTO rate_limits (key, hits, reset_at) VALUES ('a', 1, now()), ('c', 3, now())`,
      );
      await check(tx);
      throw new Error('roll back');
    })
    .catch((error: Error) => {
      if (error.message !== 'roll back') throw error;
    });
}

describe('rows by key, one look-up per key (issue 14)', () => {
  it('answers the row of each key found, once per key asked, and nothing for a key not there', async () => {
    await onFreshTable(async (tx) => {
      const wanted = rowsByKey(tx, rateLimits, rateLimits.key, 'keys', 'text');
      const rows = await tx
        .select({ key: rateLimits.key, hits: rateLimits.hits })
        .from(wanted.keys)
        .innerJoinLateral(wanted.rows, sql`true`)
        .prepare('rows_by_key_test_rows')
        .execute({ keys: ['a', 'b', 'c', 'a'] });
      expect(rows.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
        { key: 'a', hits: 1 },
        { key: 'a', hits: 1 },
        { key: 'c', hits: 3 },
      ]);
    });
  });

  it('keeps a plan that looks each key up in the unique index on a table not yet analyzed, where = ANY scans it whole', async () => {
    await onFreshTable(async (tx) => {
      const wanted = rowsByKey(tx, rateLimits, rateLimits.key, 'keys', 'text');
      const lateral = tx
        .select({ hits: rateLimits.hits })
        .from(wanted.keys)
        .innerJoinLateral(wanted.rows, sql`true`)
        .toSQL();
      const plan = await genericPlan(tx, lateral);
      expect(plan).toMatch(/Index Scan using rate_limits_pkey on rate_limits/);
      expect(plan).not.toMatch(/Seq Scan on rate_limits/);

      // The form it replaced, on the same table, looks the keys up together (a bitmap scan), not one by one.
      const anyOf = tx
        .select({ hits: rateLimits.hits })
        .from(rateLimits)
        .where(sql`${rateLimits.key} = ANY(${sql.placeholder('keys')}::text[])`)
        .toSQL();
      expect(await genericPlan(tx, anyOf)).not.toMatch(/Index Scan using rate_limits_pkey on rate_limits/);
    });
  });
});
