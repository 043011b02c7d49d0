import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { onFreshCopy, plansOverRuns } from '../../../tests/fixtures/plans';
import { batchRows } from './client';

const FILL = `INSERT INTO rate_limits (key, hits, reset_at) VALUES ('a', 1, now()), ('b', 2, now()), ('c', 3, now())`;

/** Each key's hits, looked up one key at a time, from a batch's rows given by `rows` (with a column `key`). */
const hitsOf = (rows: SQL) =>
  new PgDialect().sqlToQuery(sql`
    SELECT b.key, r.hits FROM ${rows}
      CROSS JOIN LATERAL (SELECT hits FROM rate_limits WHERE key = b.key OFFSET 0) AS r`).sql;

describe('a batch given as arrays (issue 14)', () => {
  it("answers each array's elements as one row, in order, as unnest does", async () => {
    await onFreshCopy('rate_limits', FILL, async (tx) => {
      const rows = await tx.execute<{ key: string; n: number; estimate_only: unknown }>(
        sql`SELECT * FROM ${batchRows('b', { key: sql`${sql.param(['c', 'a'])}::text[]`, n: sql`${sql.param([1, 2])}::int[]` })}`,
      );
      expect(rows.rows).toEqual([
        { key: 'c', n: 1, estimate_only: null },
        { key: 'a', n: 2, estimate_only: null },
      ]);
    });
  });

  it('keeps one plan for batches of any size, where unnest was planned again on every run of a small batch', async () => {
    await onFreshCopy('rate_limits', FILL, async (tx) => {
      const fixed = hitsOf(batchRows('b', { key: sql.raw('$1::text[]') }));
      expect(await plansOverRuns(tx, fixed, [`'{a}'`], 8)).toEqual({ generic: 3, custom: 5 });
      // The form it replaced: every run of a one-row batch planned for its values.
      const plain = hitsOf(sql.raw('unnest($1::text[]) AS b(key)'));
      expect(await plansOverRuns(tx, plain, [`'{a}'`], 8)).toEqual({ generic: 0, custom: 8 });
    });
  });
});
