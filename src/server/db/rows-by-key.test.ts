import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { genericPlan, onFreshCopy } from '../../../tests/fixtures/plans';
import { rowsByKey } from './client';
import { rateLimits } from './schema/rate-limits';

const FILL = `INSERT INTO rate_limits (key, hits, reset_at) VALUES ('a', 1, now()), ('c', 3, now())`;

describe('rows by key, one look-up per key (issue 14)', () => {
  it('answers the row of each key found, once per key asked, and nothing for a key not there', async () => {
    await onFreshCopy('rate_limits', FILL, async (tx) => {
      const wanted = rowsByKey(tx, rateLimits, rateLimits.key, 'keys');
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

  it('keeps a plan that looks each key up in the unique index on a table not yet analyzed, where = ANY does not', async () => {
    await onFreshCopy('rate_limits', FILL, async (tx) => {
      const wanted = rowsByKey(tx, rateLimits, rateLimits.key, 'keys');
      const lateral = tx
        .select({ hits: rateLimits.hits })
        .from(wanted.keys)
        .innerJoinLateral(wanted.rows, sql`true`)
        .toSQL();
      const plan = await genericPlan(tx, lateral.sql, [`'{a,b}'`, '1']);
      expect(plan).toMatch(/Index Scan using rate_limits_pkey on rate_limits/);
      expect(plan).not.toMatch(/Seq Scan on rate_limits/);

      // The form it replaced, on the same table, looks the keys up together (a bitmap scan), not one by one.
      const anyOf = tx
        .select({ hits: rateLimits.hits })
        .from(rateLimits)
        .where(sql`${rateLimits.key} = ANY(${sql.placeholder('keys')}::text[])`)
        .toSQL();
      expect(await genericPlan(tx, anyOf.sql, [`'{a,b}'`])).not.toMatch(
        /Index Scan using rate_limits_pkey on rate_limits/,
      );
    });
  });
});
