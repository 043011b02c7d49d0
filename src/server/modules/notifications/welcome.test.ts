import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the welcome notification', () => {
  it('every new business and user gets the seed’s welcome message as their first notification', async () => {
    for (const role of ['business', 'user'] as const) {
      const { account } = await registerAndLogin(t.app, role);
      const rows = await t.database.db.execute<{ kind: string; title: string; read_at: string | null }>(
        sql`SELECT kind, title, read_at FROM notifications WHERE account_id = ${account.id}`,
      );
      expect(rows.rows).toEqual([
        { kind: 'welcome', title: 'Welcome, we are happy to have you onboard', read_at: null },
      ]);
    }
  });
});
