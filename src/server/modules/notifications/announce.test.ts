import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { NOTIFICATIONS_CHANNEL } from './notifications.repository';
import { notify } from './notifications.service';

/**
 * What PostgreSQL announces on the notifications channel (migration 0024): each account whose notifications
 * a statement wrote, once, at its commit; nothing for a statement rolled back; a read, once at its commit.
 */
let t: TestApp;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  listener = new pg.Client({ connectionString: inject('databaseUrl') });
  await listener.connect();
  listener.on('notification', (n) => {
    if (n.channel === NOTIFICATIONS_CHANNEL) heard.push(n.payload ?? '');
  });
  await listener.query(`LISTEN ${NOTIFICATIONS_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await t.close();
});

/**
 * Sends a marker on the channel and waits until the listener has heard it: once it arrives, everything
 * committed before it has arrived too (announcements come at commit, in commit order).
 */
async function heardUpToNow(): Promise<void> {
  const marker = crypto.randomUUID();
  await t.database.pool.query(`SELECT pg_notify($1, $2)`, [NOTIFICATIONS_CHANNEL, marker]);
  for (let i = 0; i < 200 && !heard.includes(marker); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(heard).toContain(marker);
}

/** What the listener hears for `ids` while `act` runs and a moment after (announcements come at commit). */
async function heardFor(ids: string[], act: () => Promise<unknown>): Promise<string[]> {
  // What came before (the account's own sign-up, say) may still be on its way: heard and dropped first, so
  // it cannot be counted as the act's. Without it a slow machine failed the rolled-back case now and then.
  await heardUpToNow();
  heard.length = 0;
  await act();
  await heardUpToNow();
  return heard.filter((payload) => ids.includes(payload)).sort();
}

describe('notifications announced (issue 14: once per statement)', () => {
  it('one statement writing several notifications for two accounts announces each account once', async () => {
    const a = (await registerAndLogin(t.app, 'user')).account.id;
    const b = (await registerAndLogin(t.app, 'business')).account.id;
    const news = (accountId: string, title: string) => ({
      accountId,
      kind: 'card_bought' as const,
      title,
      body: '.',
    });
    const got = await heardFor([a, b], () =>
      notify(t.database.db, [news(a, '1'), news(b, '2'), news(a, '3'), news(a, '4')]),
    );
    expect(got).toEqual([a, b].sort());
  });

  it('a statement rolled back announces nothing; reading announces the reader', async () => {
    const me = await registerAndLogin(t.app, 'user');
    const id = me.account.id;
    const rolledBack = await heardFor([id], () =>
      t.database.db
        .transaction(async (tx) => {
          await notify(tx, [{ accountId: id, kind: 'card_bought', title: 'x', body: 'y' }]);
          throw new Error('roll back');
        })
        .catch(() => undefined),
    );
    expect(rolledBack).toEqual([]);

    const read = await heardFor([id], async () => {
      await notify(t.database.db, [{ accountId: id, kind: 'card_bought', title: 'x', body: 'y' }]);
      await me.request({ method: 'POST', url: '/api/v1/notifications/read', payload: { all: true } });
    });
    // The new one (its statement), then the read (its row): two transactions, one announcement each.
    expect(read).toEqual([id, id]);
  });
});
