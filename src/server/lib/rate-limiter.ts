import { sql, type Placeholder } from 'drizzle-orm';
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
 * (`max`) for a statement that goes on only when none is over it.
 */
export function triesOf(limits: Limit[]): string {
  const keys = limits.map((l) => l.key);
  if (new Set(keys).size !== keys.length) throw new Error('a limit key appears twice in one consume');
  return JSON.stringify(
    limits.map((l) => ({ key: l.key, window_seconds: Math.trunc(l.windowSeconds), max: l.max })),
  );
}

/**
 * The counting of `consume` as the body of a CTE (returning key, hits, retry), for a statement that spends the
 * tries and reads what the request needs at once (issue 14: one round trip fewer). `tries` is `triesOf`'s
 * JSON, as a value or as the placeholder of a statement built once. The rows are taken in key order, so two
 * requests sharing keys can never lock them in opposite orders.
 */
export function countTriesOf(tries: string | Placeholder) {
  return sql`
    INSERT INTO rate_limits (key, hits, reset_at)
    SELECT l.key, 1, now() + make_interval(secs => l.window_seconds)
      FROM jsonb_to_recordset(${tries}::jsonb) AS l(key text, window_seconds int)
     ORDER BY l.key
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.hits + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
    RETURNING key, hits, ceil(extract(epoch FROM reset_at - now()))::int AS retry`;
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
  const result = await db.execute<Counted>(countTriesOf(triesOf(limits)));
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
