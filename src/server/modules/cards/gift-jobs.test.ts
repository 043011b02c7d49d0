import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Gift } from '../../../shared/cards/gifts';
import { connectDatabase, type Database } from '../../db/client';
import { unique } from '../../../../tests/fixtures/factories';
import {
  actOnGift,
  activityKinds,
  cardRow,
  heldCard,
  mailsTo,
  notificationsOf,
  sentGift,
  tokenFor,
  usernameOf,
} from '../../../../tests/fixtures/gifts';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { createCodeVault } from './cards.service';
import { runGiftJob, startGiftWorker, type GiftDeps } from './gifts.service';

/**
 * The gift job: scheduled gifts go out when due, exactly once, with two instances on one database and
 * across a restart; pending gifts nobody accepted in 30 days go back to their senders.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const user = () => registerAndLogin(t.app, 'user');
const email = () => `job-${unique()}@example.test`;
const later = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();

function depsOn(db: Database['db']): GiftDeps {
  return { db, config: t.config, codes: createCodeVault(t.config.CODE_ENCRYPTION_KEY) };
}

async function makeDue(giftIds: string[]): Promise<void> {
  await t.database.pool.query(
    "UPDATE gifts SET deliver_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])",
    [giftIds],
  );
}

/** n scheduled gifts, each to its own user, made due. */
async function dueGifts(n: number) {
  const made = await Promise.all(
    Array.from({ length: n }, async () => {
      const { sender, card } = await heldCard(t);
      const friend = await user();
      const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend), deliverAt: later() });
      return { sender, card, friend, gift };
    }),
  );
  await makeDue(made.map((m) => m.gift.id));
  return made;
}

async function statusOf(giftId: string): Promise<string> {
  const { rows } = await t.database.pool.query<{ status: string }>('SELECT status FROM gifts WHERE id = $1', [
    giftId,
  ]);
  return rows[0]!.status;
}

describe('delivering scheduled gifts', () => {
  it('sends a due gift: pending with 30 days, the recipient notified and mailed once', async () => {
    const { friend, gift, card } = (await dueGifts(1))[0]!;
    await runGiftJob(depsOn(t.database.db));
    const seen = (await friend.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })).json() as Gift;
    expect(seen).toMatchObject({ status: 'pending', direction: 'received' });
    expect(Date.parse(seen.expiresAt!) - Date.parse(seen.sentAt!)).toBe(30 * 24 * 60 * 60 * 1000);
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(1);
    expect(await mailsTo(t, friend.input.email, 'gift_received')).toHaveLength(1);
    expect((await actOnGift(t, friend, gift.id, 'accept')).statusCode).toBe(200);
    expect((await cardRow(t, card.id)).owner_id).toBe(friend.account.id);
  });

  it('★ two app instances (two pools) running the job at once send each gift exactly once', async () => {
    const gifts = await dueGifts(8);
    const other: Database = connectDatabase(inject('databaseUrl'), { max: 4 });
    try {
      const a = depsOn(t.database.db);
      const b = depsOn(other.db);
      await Promise.all([runGiftJob(a), runGiftJob(b), runGiftJob(a), runGiftJob(b)]);
    } finally {
      await other.close();
    }
    for (const { friend, gift } of gifts) {
      expect(await statusOf(gift.id)).toBe('pending');
      expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(1);
      expect(await mailsTo(t, friend.input.email, 'gift_received')).toHaveLength(1);
    }
  });

  it('★ a restart (the worker stopped and started again) sends nothing twice', async () => {
    const gifts = await dueGifts(3);
    const deps = depsOn(t.database.db);
    const stop = startGiftWorker(deps, 50);
    await waitFor(async () => {
      const statuses = await Promise.all(gifts.map((g) => statusOf(g.gift.id)));
      return statuses.every((s) => s === 'pending');
    });
    await stop();
    const restarted = startGiftWorker(deps, 50);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await restarted();
    for (const { friend } of gifts) {
      expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(1);
      expect(await mailsTo(t, friend.input.email, 'gift_received')).toHaveLength(1);
    }
  });

  it('an address that got a user account before the time: the gift names that account', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to, deliverAt: later() });
    const newcomer = await registerAndLogin(t.app, 'user', { email: to });
    await makeDue([gift.id]);
    await runGiftJob(depsOn(t.database.db));
    expect(await notificationsOf(t, newcomer.account.id, 'gift_received')).toHaveLength(1);
    expect((await actOnGift(t, newcomer, gift.id, 'accept')).statusCode).toBe(200);
  });

  it('an address that became a business’s before the time: the gift goes back to the sender, who is told', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to, deliverAt: later() });
    await registerAndLogin(t.app, 'business', { email: to });
    await makeDue([gift.id]);
    await runGiftJob(depsOn(t.database.db));
    expect(await statusOf(gift.id)).toBe('expired');
    expect((await cardRow(t, card.id)).status).toBe('active');
    const [returned] = await notificationsOf(t, sender.account.id, 'gift_returned');
    expect(returned!.body).toContain('could not be sent: that address cannot receive gifts.');
    expect(await mailsTo(t, to, 'gift_received')).toEqual([]);
  });
});

describe('returning gifts nobody accepted', () => {
  it('a pending gift past its 30 days goes back to the sender, who is told and mailed; its link is dead', async () => {
    const { seller, sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to });
    const token = await tokenFor(t, to, gift.id);
    await t.database.pool.query("UPDATE gifts SET expires_at = now() - interval '1 second' WHERE id = $1", [
      gift.id,
    ]);
    await runGiftJob(depsOn(t.database.db));
    expect(await statusOf(gift.id)).toBe('expired');
    expect((await cardRow(t, card.id)).status).toBe('active');
    expect(await activityKinds(t, card.id)).toEqual(['issue', 'gift_sent', 'gift_returned']);
    expect(await notificationsOf(t, sender.account.id, 'gift_returned')).toEqual([
      {
        kind: 'gift_returned',
        title: 'Your gift came back',
        body: `${to} did not accept the ₦10,000.00 ${seller.input.name} gift card within 30 days. It is back in My Gift Cards.`,
        link: `/user-dashboard/mycards/${card.id}`,
      },
    ]);
    expect(await mailsTo(t, sender.input.email, 'gift_returned')).toHaveLength(1);
    const late = await actOnGift(t, await user(), gift.id, 'accept', { token });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ details: { status: 'expired' } });

    await runGiftJob(depsOn(t.database.db));
    expect(await notificationsOf(t, sender.account.id, 'gift_returned')).toHaveLength(1);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
