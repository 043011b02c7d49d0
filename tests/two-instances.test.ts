import { randomInt } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { connectDatabase, runMigrations } from '../src/server/db/client';

/**
 * Two app processes (the real server, started from source with tsx) on ONE PostgreSQL, behind no shared
 * memory: whatever must hold for the whole service — the sign-in and code look-up limits, a payment webhook
 * taking effect once, each mail and each scheduled gift going out once — has to be counted in the database.
 * Requests go to both alternately and in parallel, over real HTTP. The instances get a database of their own
 * on the test PostgreSQL (created here, dropped afterwards), so their workers never pick up other test
 * files' mail, gifts or payments from the shared test database.
 */
/** A fresh database on the test PostgreSQL; `drop()` removes it (and ends whatever still uses it). */
async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = inject('databaseUrl');
  const name = `${prefix}_${process.pid}_${randomInt(1e9)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

describe('two instances starting at once on an empty database', () => {
  it('both apply the migrations (one waits for the other) and neither fails', async () => {
    const database = await freshDatabase('giftmart_two_migrate');
    const first = connectDatabase(database.url, { max: 2 });
    const second = connectDatabase(database.url, { max: 2 });
    try {
      const outcomes = await Promise.allSettled([runMigrations(first.db), runMigrations(second.db)]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const applied = await first.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      const journal = (await import('../src/server/db/migrations/meta/_journal.json')) as {
        default: { entries: unknown[] };
      };
      expect(applied.rows[0]!.n, 'each migration recorded once').toBe(journal.default.entries.length);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
