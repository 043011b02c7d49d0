import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { builtOnce, connectDatabase, type Database } from './client';
import { rateLimits } from './schema/rate-limits';

const open: Database[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((database) => database.close()));
});

function database(): Database {
  const opened = connectDatabase(inject('databaseUrl'), { max: 4 });
  open.push(opened);
  return opened;
}

const hitsOf = builtOnce((db) =>
  db
    .select({ hits: rateLimits.hits })
    .from(rateLimits)
    .where(eq(rateLimits.key, sql.placeholder('key')))
    .prepare('built_once_test_hits'),
);

describe('a statement built once (issue 14)', () => {
  it('runs on the pool, or inside the transaction it is given: it sees that transaction’s writes, and nothing of one that rolled back', async () => {
    const { db } = database();
    const key = `built-once:${crypto.randomUUID()}`;
    expect(await hitsOf(db).execute({ key })).toEqual([]);

    await db
      .transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key, hits: 7, resetAt: new Date(Date.now() + 60_000) });
        // In the transaction: its own uncommitted row. On the pool (another connection): not yet.
        expect(await hitsOf(tx).execute({ key })).toEqual([{ hits: 7 }]);
        expect(await hitsOf(db).execute({ key })).toEqual([]);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await hitsOf(db).execute({ key })).toEqual([]);

    await db.insert(rateLimits).values({ key, hits: 3, resetAt: new Date(Date.now() + 60_000) });
    expect(await hitsOf(db).execute({ key })).toEqual([{ hits: 3 }]);
    // A second database (another pool): the same statement, bound to that pool.
    expect(await hitsOf(database().db).execute({ key })).toEqual([{ hits: 3 }]);
    await db.delete(rateLimits).where(eq(rateLimits.key, key));
  });
});
