import { createHash } from 'node:crypto';
import type pg from 'pg';

/** How many different statements one connection keeps prepared; later ones are sent unnamed. */
const PER_CONNECTION = 256;

/**
 * Lists and searches (a LIMIT, a LIKE) stay unnamed: their best plan depends on the values (a filter that
 * matches a few rows or most, a cursor near the start or the end), so PostgreSQL plans them each time.
 */
const PLANNED_EACH_TIME = /\blimit\b|\bi?like\b/i;

type QueryConfig = { text?: unknown; name?: unknown };

/** Names already worked out, by text: the app sends the same few dozen texts over and over. */
const names = new Map<string, string | undefined>();
const REMEMBERED = 1024;

/** The name a statement is prepared under: a hash of its text, so the same text gets the same name. */
export function statementName(text: string): string | undefined {
  if (names.has(text)) return names.get(text);
  const name = PLANNED_EACH_TIME.test(text)
    ? undefined
    : `g${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
  if (names.size < REMEMBERED) names.set(text, name);
  return name;
}

/**
 * Issue 14's profile: planning was a third of PostgreSQL's work on a redemption. Every other statement the
 * app sends with parameters becomes a named (prepared) statement on its connection, so PostgreSQL parses it
 * once per connection and can keep its plan (its plan cache decides, per statement, once it has seen five
 * executions). The statements come from the repositories' fixed query shapes, so a connection keeps a few
 * dozen (at most PER_CONNECTION). Prepared statements belong to the session, so a rolled-back transaction
 * does not lose one; node-postgres forgets a name whose Parse failed. `DATABASE_PREPARED_STATEMENTS=false`
 * turns this off, for a pooler between the app and PostgreSQL that cannot keep them (PgBouncer in
 * transaction mode before 1.21): `unnameStatements` instead.
 */
export function nameStatements(pool: pg.Pool): void {
  rewriteQueries(pool, () => {
    const named = new Set<string>();
    return (config) => {
      if (typeof config.text !== 'string' || config.name !== undefined) return config;
      const name = statementName(config.text);
      if (!name || (!named.has(name) && named.size >= PER_CONNECTION)) return config;
      named.add(name);
      return { ...config, name };
    };
  });
}

/**
 * With `DATABASE_PREPARED_STATEMENTS=false` nothing is prepared: besides the names above, the statements built
 * once (`builtOnce`, `sqlBuiltOnce`) carry names of their own, which are dropped on the pool's connections, so
 * a pooler that cannot keep prepared statements gets every statement unnamed.
 */
export function unnameStatements(pool: pg.Pool): void {
  rewriteQueries(
    pool,
    () => (config) => (config.name === undefined ? config : { ...config, name: undefined }),
  );
}

/**
 * On each of the pool's connections, every query given as a config object goes through `rewrite`, made for
 * that connection (`forConnection`).
 */
function rewriteQueries(pool: pg.Pool, forConnection: () => (config: QueryConfig) => QueryConfig): void {
  pool.on('connect', (client) => {
    const rewrite = forConnection();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as QueryConfig | string | undefined;
      if (config && typeof config === 'object') args[0] = rewrite(config);
      return query(...args);
    };
  });
}
