import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SoldCard } from '../../../shared/cards/schemas';
import { buyCard, cardOf, createDesign } from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { createCodeVault } from './code-vault';
import { runExpiryJob } from './expiry.service';

/**
 * Cards with a validity (issue 10): each bought card gets its expiresAt from the design's months; a card
 * past it reads "expired" at once and refuses to be spent, saying since when; the daily job marks it
 * expired exactly once (even two instances at once) and sends the "expires in 7 days" reminder once.
 * The job sees every card in the shared database, so assertions look only at this test's own cards.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');
const jobDeps = () => ({
  db: t.database.db,
  config: t.config,
  codes: createCodeVault(t.config.CODE_ENCRYPTION_KEY),
});

async function soldCard(amount = 1_000_000, validityMonths: number | null = 1) {
  const seller = await business();
  const buyer = await user();
  const design = await createDesign(seller, amount, validityMonths);
  const card = await buyCard(t, buyer, design);
  return { seller, buyer, card, design };
}

async function setExpiry(id: string, interval: string) {
  await t.database.pool.query(`UPDATE purchased_cards SET expires_at = now() + $2::interval WHERE id = $1`, [
    id,
    interval,
  ]);
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return (await t.database.pool.query(sql, params)).rows[0].n as number;
}

const expireActivities = (id: string) =>
  count("SELECT count(*)::int AS n FROM card_activities WHERE purchased_card_id = $1 AND kind = 'expire'", [
    id,
  ]);
const notificationsOf = (accountId: string, kind: string) =>
  count('SELECT count(*)::int AS n FROM notifications WHERE account_id = $1 AND kind = $2', [
    accountId,
    kind,
  ]);

describe('validity', () => {
  it('a bought card expires its design’s validity after the purchase; no validity, no expiry', async () => {
    const { buyer, card, design } = await soldCard(200_000, 6);
    expect(design.validityMonths).toBe(6);
    const held = await cardOf(buyer, card.id);
    expect(held.expiresAt).not.toBeNull();
    const purchased = new Date(held.purchasedAt);
    const expected = new Date(purchased);
    expected.setUTCMonth(expected.getUTCMonth() + 6);
    expect(Math.abs(new Date(held.expiresAt!).getTime() - expected.getTime())).toBeLessThan(
      2 * 24 * 3600 * 1000,
    );
    const { rows } = await t.database.pool.query(
      "SELECT expires_at = created_at + interval '6 months' AS exact FROM purchased_cards WHERE id = $1",
      [card.id],
    );
    expect(rows[0].exact).toBe(true);

    const open = await soldCard(200_000, null);
    expect((await cardOf(open.buyer, open.card.id)).expiresAt).toBeNull();
  });

  it('refuses a design validity outside 1–60 months', async () => {
    const seller = await business();
    for (const validityMonths of [0, 61, 1.5, -1, '6']) {
      const res = await seller.request({
        method: 'POST',
        url: '/api/v1/gift-cards',
        payload: { amount: 100_000, colour: '#1a2b3c', validityMonths },
      });
      expect(res.statusCode, String(validityMonths)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});

describe('an expired card', () => {
  it('reads expired at once and refuses redemption with its expiry date, before the job has run', async () => {
    const { seller, buyer, card } = await soldCard(500_000, 1);
    await setExpiry(card.id, '-1 day');
    const { rows } = await t.database.pool.query(
      `SELECT to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM purchased_cards WHERE id = $1`,
      [card.id],
    );
    const day = rows[0].day as string;

    const looked = await seller.request({
      method: 'POST',
      url: '/api/v1/card-lookups',
      payload: { code: card.code },
      remoteAddress: freshIp(),
    });
    expect(looked.statusCode).toBe(200);
    expect(looked.json()).toMatchObject({ status: 'expired', balance: { amount: 500_000 } });
    expect((looked.json() as SoldCard).expiresAt!.slice(0, 10)).toBe(day);

    for (const payload of [{ amount: 1_000 }, { all: true }]) {
      const refused = await seller.request({
        method: 'POST',
        url: '/api/v1/redemptions',
        payload: { code: card.code, ...payload },
        remoteAddress: freshIp(),
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'CARD_NOT_REDEEMABLE', details: { status: 'expired' } });
      expect(refused.json().message).toContain('expired');
      expect(refused.json().message).toContain(day);
    }

    const checked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/balance-checks',
      payload: { code: card.code },
      remoteAddress: freshIp(),
    });
    expect(checked.json()).toMatchObject({ status: 'expired', balance: { amount: 500_000 } });
    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('expired');
    expect(held.balance.amount).toBe(500_000);
    const freeze = await buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` });
    expect(freeze.statusCode).toBe(409);
    expect(freeze.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT' });
    const blocked = await seller.request({
      method: 'POST',
      url: `/api/v1/sold-cards/${card.id}/block`,
      payload: {},
    });
    expect(blocked.statusCode).toBe(409);
  });

  it('the job marks it expired with one expire activity, even when two runs race', async () => {
    const { seller, buyer, card } = await soldCard(400_000, 1);
    const live = await soldCard(400_000, 1);
    const forever = await soldCard(400_000, null);
    await setExpiry(card.id, '-1 day');

    const runs = await Promise.all([runExpiryJob(jobDeps()), runExpiryJob(jobDeps())]);
    expect(runs[0]!.expired + runs[1]!.expired).toBeGreaterThanOrEqual(1);
    expect(await expireActivities(card.id)).toBe(1);
    expect(await notificationsOf(buyer.account.id, 'card_expired')).toBe(1);
    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('expired');
    expect(held.balance.amount).toBe(400_000);
    expect(held.activities.map((a) => [a.kind, a.amount.amount, a.balanceAfter.amount])).toEqual([
      ['issue', 400_000, 400_000],
      ['expire', 0, 400_000],
    ]);
    const { rows } = await t.database.pool.query('SELECT status FROM purchased_cards WHERE id = $1', [
      card.id,
    ]);
    expect(rows[0].status).toBe('expired');

    // A third run finds nothing more to do for it; live cards are untouched.
    await runExpiryJob(jobDeps());
    expect(await expireActivities(card.id)).toBe(1);
    expect(await notificationsOf(buyer.account.id, 'card_expired')).toBe(1);
    expect((await cardOf(live.buyer, live.card.id)).status).toBe('active');
    expect((await cardOf(forever.buyer, forever.card.id)).status).toBe('active');

    const refused = await seller.request({
      method: 'POST',
      url: '/api/v1/redemptions',
      payload: { code: card.code, amount: 100 },
      remoteAddress: freshIp(),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('expired');
  });

  it('expires a frozen or blocked card as well', async () => {
    const frozen = await soldCard(100_000, 1);
    await frozen.buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${frozen.card.id}/freeze` });
    const blocked = await soldCard(100_000, 1);
    await blocked.seller.request({
      method: 'POST',
      url: `/api/v1/sold-cards/${blocked.card.id}/block`,
      payload: { reason: 'lost' },
    });
    await setExpiry(frozen.card.id, '-1 hour');
    await setExpiry(blocked.card.id, '-1 hour');
    await runExpiryJob(jobDeps());
    for (const { buyer, card } of [frozen, blocked]) {
      const held = await cardOf(buyer, card.id);
      expect(held.status).toBe('expired');
      expect(held.activities.at(-1)!.kind).toBe('expire');
      expect(await expireActivities(card.id)).toBe(1);
    }
  });
});

describe('the "expires in 7 days" reminder', () => {
  it('is sent once for a card expiring in 3 days, even when two runs race, and never for later or empty cards', async () => {
    const soon = await soldCard(300_000, 1);
    const later = await soldCard(300_000, 1);
    const empty = await soldCard(300_000, 1);
    await empty.seller.request({
      method: 'POST',
      url: '/api/v1/redemptions',
      payload: { code: empty.card.code, all: true },
      remoteAddress: freshIp(),
    });
    await setExpiry(soon.card.id, '3 days');
    await setExpiry(later.card.id, '10 days');
    await setExpiry(empty.card.id, '3 days');

    await Promise.all([runExpiryJob(jobDeps()), runExpiryJob(jobDeps())]);
    expect(await notificationsOf(soon.buyer.account.id, 'card_expiring')).toBe(1);
    const { rows } = await t.database.pool.query(
      "SELECT title, body, link FROM notifications WHERE account_id = $1 AND kind = 'card_expiring'",
      [soon.buyer.account.id],
    );
    expect(rows[0].title).toContain('7 days');
    expect(rows[0].body).toContain('₦3,000.00');
    expect(rows[0].link).toContain(soon.card.id);

    await runExpiryJob(jobDeps());
    expect(await notificationsOf(soon.buyer.account.id, 'card_expiring')).toBe(1);
    expect(await notificationsOf(later.buyer.account.id, 'card_expiring')).toBe(0);
    expect(await notificationsOf(empty.buyer.account.id, 'card_expiring')).toBe(0);
    // A reminder is not an expiry: the card can still be spent.
    expect((await cardOf(soon.buyer, soon.card.id)).status).toBe('active');
    const spent = await soon.seller.request({
      method: 'POST',
      url: '/api/v1/redemptions',
      payload: { code: soon.card.code, amount: 1_000 },
      remoteAddress: freshIp(),
    });
    expect(spent.statusCode, spent.body).toBe(201);
  });
});
