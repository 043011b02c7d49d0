import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../env';
import { builtOnce, connectDatabase, sqlBuiltOnce, type Database } from './client';
import { rateLimits } from './schema/rate-limits';
import { statementName } from './statement-names';

const open: Database[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((database) => database.close()));
});

/** One connection, so every statement below runs on the session whose prepared statements are read. */
function oneConnection(preparedStatements?: boolean): Database {
  const database = connectDatabase(inject('databaseUrl'), { max: 1, preparedStatements });
  open.push(database);
  return database;
}

const builtOnceStatement = builtOnce((db) =>
  db
    .select({ n: sql<number>`${sql.placeholder('n')}::int`.as('n') })
    .from(rateLimits)
    .limit(1)
    .prepare('statement_names_test_built_once'),
);
const sqlBuiltOnceStatement = sqlBuiltOnce(
  'statement_names_test_sql_built_once',
  () => sql`SELECT ${sql.placeholder('n')}::int AS n`,
);

async function prepared(database: Database): Promise<string[]> {
  const result = await database.db.execute<{ statement: string }>(
    sql`SELECT statement FROM pg_prepared_statements WHERE ${'x'}::text = 'x'`,
  );
  return result.rows.map((row) => row.statement);
}

describe('statements sent as named prepared statements (issue 14)', () => {
  it('names a statement by its text, and leaves lists and searches (LIMIT, LIKE) to be planned each time', () => {
    const text = 'select "id" from "accounts" where "accounts"."id" = $1';
    expect(statementName(text)).toMatch(/^g[\w-]{20}$/);
    expect(statementName(text)).toBe(statementName(`${text}`));
    expect(statementName(`${text} `)).not.toBe(statementName(text));
    expect(statementName(`${text} limit $2`)).toBeUndefined();
    expect(statementName('select 1 from "accounts" where "name" ILIKE $1')).toBeUndefined();
    expect(statementName('select "id" from "rate_limits" where "key" = $1')).toBeDefined();
  });

  it('prepares each statement once per connection and answers it the same way the next times', async () => {
    const database = oneConnection();
    for (let i = 0; i < 7; i++) {
      const result = await database.db.execute<{ n: number }>(sql`SELECT ${i}::int + 1 AS n`);
      expect(result.rows).toEqual([{ n: i + 1 }]);
    }
    const statements = await prepared(database);
    expect(statements.filter((s) => s.includes('+ 1 AS n'))).toHaveLength(1);
  });

  it('keeps a statement prepared in a transaction that rolls back, and a failed Parse costs nothing later', async () => {
    const database = oneConnection();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT ${1}::int AS kept`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await database.db.execute(sql`SELECT ${2}::int AS kept`)).rows).toEqual([{ kept: 2 }]);
    await expect(database.db.execute(sql`SELECT ${1}::int FROM no_such_table`)).rejects.toThrow();
    await expect(database.db.execute(sql`SELECT ${1}::int FROM no_such_table`)).rejects.toThrow(
      /no_such_table/,
    );
    expect((await database.db.execute(sql`SELECT ${3}::int AS kept`)).rows).toEqual([{ kept: 3 }]);
  });

  it('is off with DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot keep them)', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_PREPARED_STATEMENTS: 'false' });
    expect(config.DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).DATABASE_PREPARED_STATEMENTS).toBe(true);
    const database = oneConnection(config.DATABASE_PREPARED_STATEMENTS);
    await database.db.execute(sql`SELECT ${1}::int AS unnamed`);
    // Nor the statements built once under names of their own, on the pool or in a transaction.
    expect(await builtOnceStatement(database.db).execute({ n: 2 })).toBeInstanceOf(Array);
    const raw = await database.db.transaction((tx) => sqlBuiltOnceStatement(tx).execute({ n: 3 }));
    expect(raw.rows).toEqual([{ n: 3 }]);
    expect(await prepared(database)).toEqual([]);
  });
});
