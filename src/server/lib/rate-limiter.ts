import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { AppError } from './app-error';

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

// Fixed-window counters in PostgreSQL, shared by every app instance. `consume` spends a try and refuses over
// budget; `refund` gives one back; `clear` forgets a key (a successful login clears its account's count).

/** One limit's count after a try was spent: its hits in the window and the seconds until the window ends. */
export type Counted = {
  key: string;
  hits: number;
  retry: number;
};

/**
 * The limits as the counting statement takes them (its one parameter, a JSON array), with each one's budget
 * (`max`) for a statement that goes on only when none is over it, and the number `n` of the request that
 * spends the try (one request: 0).
 */
export function triesOf(limits: Limit[]): string {
  return JSON.stringify(triesList(limits, 0));
}

/** `triesOf` for many requests counted in one statement (ADR 027), numbered 0, 1, … in the order given. */
export function batchTriesOf(limitsPerRequest: Limit[][]): string {
  return JSON.stringify(limitsPerRequest.flatMap((limits, n) => triesList(limits, n)));
}

function triesList(limits: Limit[], n: number) {
  const keys = limits.map((l) => l.key);
  if (new Set(keys).size !== keys.length) throw new Error('a limit key appears twice in one consume');
  return limits.map((l) => ({ n, key: l.key, window_seconds: Math.trunc(l.windowSeconds), max: l.max }));
}

/**
 * The counting of `consume` as the bodies of two CTEs, to be named `counted_keys` and `counted` (n, key, max,
 * hits, retry: each try's count as if the requests had come one after the other in the order of `n`), for a
 * statement that spends the tries and reads what the request needs at once (issue 14: one round trip fewer).
 * `tries` is `triesOf`'s JSON, as a value or as the placeholder of a statement built once. Each key's row is
 * written once, with all of its tries (a statement cannot change a row twice), and the rows are taken in key
 * order, so two statements sharing keys can never lock them in opposite orders.
 */
export function countTriesOf(tries: string | Placeholder): { countedKeys: SQL; counted: SQL } {
  return {
    countedKeys: sql`
      INSERT INTO rate_limits (key, hits, reset_at)
      SELECT l.key, count(*), now() + make_interval(secs => min(l.window_seconds))
        FROM jsonb_to_recordset(${tries}::jsonb) AS l(key text, window_seconds int)
       GROUP BY l.key
       ORDER BY l.key
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
        reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
      RETURNING key, hits, ceil(extract(epoch FROM reset_at - now()))::int AS retry`,
    counted: sql`
      SELECT l.n, l.key, l.max, c.retry,
             (c.hits - count(*) OVER (PARTITION BY l.key)
                     + row_number() OVER (PARTITION BY l.key ORDER BY l.n))::int AS hits
        FROM jsonb_to_recordset(${tries}::jsonb) AS l(n int, key text, max int)
        JOIN counted_keys c ON c.key = l.key`,
  };
}

/** Refuses (429, with when to try again) when any limit is now over its budget. */
export function refuseOverBudget(limits: Limit[], counted: Counted[], message: string): void {
  let retryAfter = 0;
  for (const row of counted) {
    const limit = limits.find((l) => l.key === row.key)!;
    if (row.hits > limit.max) retryAfter = Math.max(retryAfter, Math.max(1, row.retry));
  }
  if (retryAfter > 0) throw rateLimited(message, retryAfter);
}

/**
 * Spends one try of every limit, atomically, and refuses when any of them is now over its budget. The count
 * comes first (INSERT … ON CONFLICT … RETURNING), so parallel requests cannot all read "under the limit"
 * before any of them is counted: of N at once, exactly `max` get through. Every limit in one statement
 * (issue 14: one round trip and one commit instead of one per limit).
 */
export async function consume(db: DbOrTx, limits: Limit[], message: string): Promise<void> {
  if (limits.length === 0) return;
  const { countedKeys, counted } = countTriesOf(triesOf(limits));
  const result = await db.execute<Counted>(
    sql`WITH counted_keys AS (${countedKeys}), counted AS (${counted}) SELECT key, hits, retry FROM counted`,
  );
  refuseOverBudget(limits, result.rows, message);
}

function rateLimited(message: string, retryAfter: number): AppError {
  const when =
    retryAfter < 60
      ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfter / 60)} minute${Math.ceil(retryAfter / 60) === 1 ? '' : 's'}`;
  return new AppError('RATE_LIMITED', `${message} Try again in ${when}.`, {
    details: { retryAfterSeconds: retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  });
}

/**
 * Gives back one try of every limit that `consume` spent, for an attempt that turned out not to count (a
 * right password: only failures are limited, but they must be counted before the check to be counted at all).
 */
export async function refund(db: DbOrTx, limits: Limit[]): Promise<void> {
  for (const limit of limits) {
    await db.execute(sql`
      UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = ${limit.key} AND reset_at > now()`);
  }
}

export async function clear(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}
