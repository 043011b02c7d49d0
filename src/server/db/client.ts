import { getTableName, sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { timeQueries } from './query-timing';
import { nameStatements, unnameStatements } from './statement-names';

// The client takes no schema: queries are built from each room's tables (no relational `db.query` API),
// so the database layer imports no room.
export type Db = NodePgDatabase;
/** A transaction handle has the same query API as the database; services accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// bigint columns (money) come back as strings from pg; drizzle's bigint mode turns them into BigInt.
export function connectDatabase(
  url: string,
  options: { max?: number; preparedStatements?: boolean } = {},
): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, idleTimeoutMillis: 30_000 });
  // An idle client that loses its connection emits 'error'; without a listener that would crash the process.
  pool.on('error', () => undefined);
  if (options.preparedStatements ?? true) nameStatements(pool);
  else unnameStatements(pool);
  timeQueries(pool, process.env.PG_QUERY_TIMING);
  const db = drizzle(pool, { casing: 'snake_case' });
  return { db, pool, close: () => pool.end() };
}

/** Migrations ship as SQL files next to the source and, in the build, next to the bundle. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'migrations'), path.resolve(here, '../../src/server/db/migrations')];
  return candidates.find((dir) => existsSync(path.join(dir, 'meta', '_journal.json'))) ?? candidates[0]!;
}

/** Any fixed number: the advisory lock that lets one instance at a time migrate a database. */
const MIGRATION_LOCK = 4_207_310_012;

/**
 * Applies the pending migrations holding an advisory lock, on one connection: instances starting together
 * (or a rolling deploy) take turns, and the later ones find the migrations applied instead of running them
 * again (drizzle's migrator alone reads "none applied" in both and the second fails or repeats a migration).
 */
export async function runMigrations(db: Db): Promise<void> {
  const client = await (db as Db & { $client: pg.Pool }).$client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client, { casing: 'snake_case' }), { migrationsFolder: migrationsFolder() });
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    client.release();
  } catch (error) {
    // Closing the connection lets go of its lock too.
    client.release(true);
    throw error;
  }
}

/**
 * A statement drizzle builds once and then only fills in (issue 14): building a select of two whole tables
 * cost about 160 µs of the app's CPU on every call, a sixth of a redemption. `build` makes the statement from
 * `sql.placeholder`s and calls `.prepare(name)`. Each call answers it bound to the handle it is given: the
 * pool, or the connection of the transaction it runs in (drizzle's prepared query keeps its connection in
 * `client`, and a handle's connection is its session's `client`; built-once.test.ts holds both to that).
 */
export function builtOnce<T extends object>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  let built: T | undefined;
  return (db) => {
    built ??= build(db);
    const { client } = (db as unknown as { session: { client: unknown } }).session;
    return Object.create(built, { client: { value: client } }) as T;
  };
}

/**
 * A statement written in SQL rather than with the query builder (CTEs that several rooms write into), built
 * once like `builtOnce`: `build` makes it from `sql.placeholder`s, and `execute(values)` fills them in and
 * answers node-postgres's result. Drizzle turned such a statement's parts into text on every run: for the
 * sales' statement, about 14 µs a purchase in a CPU profile of the purchases' load (issue 14).
 */
export function sqlBuiltOnce(
  name: string,
  build: () => SQL,
): (db: DbOrTx) => { execute(values: Record<string, unknown>): Promise<pg.QueryResult> } {
  return builtOnce((db) => {
    const { session } = db as unknown as { session: RawSession };
    return session.prepareQuery(session.dialect.sqlToQuery(build()), undefined, name, false);
  });
}

/** What `sqlBuiltOnce` uses of a drizzle session (node-postgres's, as `db.execute` does). */
interface RawSession {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    arrayMode: false,
  ): { execute(values: Record<string, unknown>): Promise<pg.QueryResult> };
}

/**
 * Rows of `table` for an array of keys (the placeholder `placeholder`, of `column`'s type), for statements
 * that read many callers' rows at once (ADR 027): `.from(keys).innerJoinLateral(rows, sql`true`)`, after which
 * the table's columns name the rows found. Each key is its own look-up in `column`'s unique index (a lateral
 * subquery with a LIMIT, which the planner cannot turn into a join), whatever the planner knows of the table.
 * With `column = ANY(…)`, a statement prepared while its table was small and not yet analyzed kept a plan
 * that scanned the table whole, and kept it as the table grew (until autovacuum first analyzed it).
 */
export function rowsByKey(db: DbOrTx, table: PgTable, column: PgColumn, placeholder: string) {
  return {
    keys: sql`unnest(${sql.placeholder(placeholder)}::${sql.raw(column.getSQLType())}[]) AS wanted(key)` as SQL,
    rows: db
      .select()
      .from(table)
      .where(sql`${column} = wanted.key`)
      .limit(1)
      .as(getTableName(table)),
  };
}

/**
 * The rows of a batch given as one array per column, as `unnest(a, b, …) AS alias(names…)` gives them, for a
 * statement prepared once and run for batches of any size (issue 14). PostgreSQL plans a prepared statement
 * again on every run while a plan for the values at hand (custom) looks cheaper than the plan kept for any
 * values (generic). unnest's row estimate is its array's length in a custom plan and 10 in the generic one, so
 * a statement whose batches were mostly under 10 rows was planned again on nearly every run: the orders' insert
 * spent 0.17 ms of PostgreSQL's time a batch planning, a quarter of its cost. A set-returning function with a
 * fixed estimate and no rows at run time (`jsonb_array_elements` of an empty array: 100 rows, no support
 * function) beside the arrays in the same ROWS FROM makes every plan's estimate 100, so PostgreSQL keeps the
 * generic plan after its first five runs. Its column, `estimate_only`, is always null.
 */
export function batchRows(alias: string, columns: Record<string, SQL>): SQL {
  const arrays = Object.values(columns).map((array) => sql`unnest(${array})`);
  const names = [...Object.keys(columns), 'estimate_only'].join(', ');
  return sql`ROWS FROM (${sql.join(arrays, sql`, `)}, jsonb_array_elements('[]'))
               AS ${sql.raw(alias)}(${sql.raw(names)})`;
}
