import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyCardsPage } from '../../../shared/cards/my-cards';
import { buyCard, createDesign, type Account } from '../../../../tests/fixtures/cards';
import { actOnGift, sentGift, usernameOf } from '../../../../tests/fixtures/gifts';
import {
  createTestApp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';

/**
 * My Gift Cards' filters and sorts (issue 13): active, used up, expired, sent; newest or by balance, each
 * paged with a keyset cursor that neither skips nor repeats a card.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

async function page(holder: Account, query = ''): Promise<MyCardsPage> {
  const res = await holder.request({ method: 'GET', url: `/api/v1/purchased-cards${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MyCardsPage;
}

async function redeem(seller: Account, code: string, body: Record<string, unknown>) {
  const res = await seller.request({
    method: 'POST',
    url: '/api/v1/redemptions',
    payload: { code, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** Every page of a query, following nextCursor with `limit`. */
async function walk(holder: Account, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const p: MyCardsPage = await page(
      holder,
      `?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(p.items.length + p.sentGifts.length).toBeLessThanOrEqual(limit);
    ids.push(...p.items.map((c) => c.id), ...p.sentGifts.map((g) => g.id));
    cursor = p.nextCursor;
  } while (cursor);
  return ids;
}

/**
 * A holder with, oldest first: `big` ₦10,000 untouched, `used` spent to 0, `part` ₦10,000 half spent,
 * `old` past its expiry with money left, `given` sent and accepted by a friend, `waiting` in a gift not
 * yet accepted, `twin` ₦5,000 like `part` (a balance tie).
 */
async function holderWithEveryKind() {
  const seller = await registerAndLogin(t.app, 'business');
  const holder = await registerAndLogin(t.app, 'user');
  const friend = await registerAndLogin(t.app, 'user');
  const tenK = await createDesign(seller, 1_000_000);
  const fiveK = await createDesign(seller, 500_000);
  const big = await buyCard(t, holder, tenK);
  const used = await buyCard(t, holder, fiveK);
  await redeem(seller, used.code, { all: true });
  const part = await buyCard(t, holder, tenK);
  await redeem(seller, part.code, { amount: 500_000 });
  const old = await buyCard(t, holder, tenK);
  await t.database.pool.query(
    `UPDATE purchased_cards SET expires_at = now() - interval '1 day' WHERE id = $1`,
    [old.id],
  );
  const given = await buyCard(t, holder, fiveK);
  const gift = await sentGift(holder, given.id, { recipient: usernameOf(friend) });
  expect((await actOnGift(t, friend, gift.id, 'accept')).statusCode).toBe(200);
  const waiting = await buyCard(t, holder, fiveK);
  const open = await sentGift(holder, waiting.id, { recipient: usernameOf(friend) });
  const twin = await buyCard(t, holder, fiveK);
  return { seller, holder, friend, big, used, part, old, given, gift, waiting, open, twin };
}

describe('GET /api/v1/purchased-cards filters and sorts', () => {
  it('narrows to active, used up, expired and sent', async () => {
    const k = await holderWithEveryKind();
    const ids = async (query: string) => (await page(k.holder, query)).items.map((c) => c.id);
    expect(await ids('')).toEqual([k.twin.id, k.waiting.id, k.old.id, k.part.id, k.used.id, k.big.id]);
    expect(await ids('?status=active')).toEqual([k.twin.id, k.waiting.id, k.part.id, k.big.id]);
    expect(await ids('?status=used')).toEqual([k.used.id]);
    expect(await ids('?status=expired')).toEqual([k.old.id]);
    const expired = await page(k.holder, '?status=expired');
    expect(expired.items[0]).toMatchObject({ status: 'expired', balance: { amount: 1_000_000 } });

    // Sent: the accepted gift only, the card as it was handed on, never the recipient's new code.
    const sent = await page(k.holder, '?status=sent');
    expect(sent.items).toEqual([]);
    expect(sent.sentGifts.map((g) => [g.id, g.status])).toEqual([[k.gift.id, 'accepted']]);
    expect(sent.sentGifts[0]).toMatchObject({
      direction: 'sent',
      purchasedCardId: null,
      card: { balance: { amount: 500_000, currency: 'NGN' } },
    });
    // The friend spends some: the sender still sees the value they gave.
    const friendsCard = (await page(k.friend)).items.find((c) => c.id === k.given.id)!;
    expect(friendsCard).toBeDefined();
    const code = (
      await k.friend.request({ method: 'POST', url: `/api/v1/purchased-cards/${k.given.id}/code` })
    ).json() as { code: string };
    await redeem(k.seller, code.code, { amount: 100_000 });
    const after = await page(k.holder, '?status=sent');
    expect(after.sentGifts[0]!.card.balance.amount).toBe(500_000);
    expect(JSON.stringify(after)).not.toContain(friendsCard.codeLast4);
    // Nor is the given card among the holder's own any more.
    expect(await ids('')).not.toContain(k.given.id);
  });

  it('sorts by balance, highest first then newest, and pages each sort with its own cursor', async () => {
    const k = await holderWithEveryKind();
    const byBalance = (await page(k.holder, '?sort=balance')).items;
    expect(byBalance.map((c) => c.id)).toEqual([
      k.old.id,
      k.big.id,
      k.twin.id,
      k.waiting.id,
      k.part.id,
      k.used.id,
    ]);
    for (const limit of [1, 2, 4]) {
      expect(await walk(k.holder, 'sort=balance', limit)).toEqual(byBalance.map((c) => c.id));
      const newest = (await page(k.holder, '?sort=newest')).items.map((c) => c.id);
      expect(await walk(k.holder, 'sort=newest', limit)).toEqual(newest);
      expect(await walk(k.holder, 'status=active&sort=balance', limit)).toEqual([
        k.big.id,
        k.twin.id,
        k.waiting.id,
        k.part.id,
      ]);
    }
    expect(await walk(k.holder, 'status=sent', 1)).toEqual([k.gift.id]);

    // A cursor belongs to its sort: using it with the other is a 400, never a skipped card.
    const first = await page(k.holder, '?sort=balance&limit=1');
    const other = await page(k.holder, '?sort=newest&limit=1');
    for (const query of [
      `?sort=newest&cursor=${encodeURIComponent(first.nextCursor!)}`,
      `?sort=balance&cursor=${encodeURIComponent(other.nextCursor!)}`,
    ]) {
      const res = await k.holder.request({ method: 'GET', url: `/api/v1/purchased-cards${query}` });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('shows nobody else’s cards, whatever the filter or cursor', async () => {
    const k = await holderWithEveryKind();
    const stranger = await registerAndLogin(t.app, 'user');
    const cursor = (await page(k.holder, '?sort=balance&limit=1')).nextCursor!;
    for (const query of ['', '?status=active', '?status=used', '?status=expired', '?status=sent']) {
      const p = await page(stranger, query);
      expect(p).toEqual({ items: [], sentGifts: [], nextCursor: null });
    }
    expect((await page(stranger, `?sort=balance&cursor=${encodeURIComponent(cursor)}`)).items).toEqual([]);
    // The friend sees received gifts in Gifts, never the holder's sent list.
    expect((await page(k.friend, '?status=sent')).sentGifts).toEqual([]);

    const business = await registerAndLogin(t.app, 'business');
    const res = await business.request({ method: 'GET', url: '/api/v1/purchased-cards?status=active' });
    expect(res.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/api/v1/purchased-cards?status=active',
      headers: sameOrigin,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 400 { code, message } to bad parameters', async () => {
    const holder = await registerAndLogin(t.app, 'user');
    for (const query of [
      '?status=void',
      '?status=ACTIVE',
      '?sort=oldest',
      '?sort=',
      '?status=%00',
      '?cursor=abc.def',
      `?sort=balance&cursor=${encodeURIComponent('QQ.12')}`,
      `?sort=balance&cursor=${'a'.repeat(10)}.${'9'.repeat(19)}`,
      `?sort=balance&cursor=${Buffer.from(`2026-01-01T00:00:00.000000Z|${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`).toString('base64url')}.-1`,
      `?sort=balance&cursor=x.1.2`,
    ]) {
      const res = await holder.request({ method: 'GET', url: `/api/v1/purchased-cards${query}` });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    // A well-formed balance cursor past every card is an empty page.
    const end = `${Buffer.from(`2000-01-01T00:00:00.000000Z|${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`).toString('base64url')}.0`;
    expect(await page(holder, `?sort=balance&cursor=${end}`)).toEqual({
      items: [],
      sentGifts: [],
      nextCursor: null,
    });
  });
});
