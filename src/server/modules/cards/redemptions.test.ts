import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redemption, SoldCard } from '../../../shared/cards/schemas';
import {
  buyCard,
  cardNewsDelivered,
  cardOf,
  createDesign,
  type Account,
} from '../../../../tests/fixtures/cards';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { purchasedCards } from '../../db/schema/cards';
import { CODE_ALPHABET, formatCode } from '../../../shared/cards/codes';
import { spendCardsByCode, writeActivity } from './cards.repository';

/**
 * Spending a card at the till over /api/v1 on the real PostgreSQL: look-ups, partial and full redemption,
 * reversal, the holder's view and alert, replays, races and limits. Every test makes its own accounts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const business = () => registerAndLogin(t.app, 'business');
const user = () => registerAndLogin(t.app, 'user');

async function soldCard(amount = 1_000_000, validityMonths: number | null = null) {
  const seller = await business();
  const buyer = await user();
  const card = await buyCard(t, buyer, await createDesign(seller, amount, validityMonths));
  return { seller, buyer, card };
}

function redeem(seller: Account, payload: Record<string, unknown>, key?: string, ip = freshIp()) {
  return seller.request({
    method: 'POST',
    url: '/api/v1/redemptions',
    payload,
    remoteAddress: ip,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

function lookUp(seller: Account, code: string, ip = freshIp()) {
  return seller.request({
    method: 'POST',
    url: '/api/v1/card-lookups',
    payload: { code },
    remoteAddress: ip,
  });
}

describe('redeeming at the till', () => {
  it('looks a code up in any case and spacing, redeems part of it, then the rest with Redeem all', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const typed = ` ${card.code.toLowerCase().replaceAll('-', ' ')} `;
    const looked = await lookUp(seller, typed);
    expect(looked.statusCode, looked.body).toBe(200);
    const view = looked.json() as SoldCard;
    expect(view).toMatchObject({ id: card.id, status: 'active', balance: { amount: 1_000_000 } });
    expect(JSON.stringify(view)).not.toContain(card.code.slice(0, 4) + '-');

    const first = await redeem(seller, { code: card.code, amount: 250_000, reference: 'TILL-7 #1042' });
    expect(first.statusCode, first.body).toBe(201);
    const receipt = first.json() as Redemption;
    expect(receipt).toMatchObject({
      kind: 'redeem',
      amount: { amount: 250_000, currency: 'NGN' },
      balanceAfter: { amount: 750_000 },
      purchasedCardId: card.id,
      reference: 'TILL-7 #1042',
      reversedAt: null,
    });
    expect(receipt.reversibleUntil).not.toBeNull();

    const rest = await redeem(seller, { code: card.code, all: true });
    expect(rest.statusCode, rest.body).toBe(201);
    expect((rest.json() as Redemption).balanceAfter.amount).toBe(0);

    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('redeemed');
    expect(held.activities.map((a) => [a.kind, a.amount.amount, a.balanceAfter.amount])).toEqual([
      ['issue', 1_000_000, 1_000_000],
      ['redeem', -250_000, 750_000],
      ['redeem', -750_000, 0],
    ]);
    expect(held.activities[1]).toMatchObject({ reference: 'TILL-7 #1042', placeName: seller.input.name });

    const used = await redeem(seller, { code: card.code, amount: 1 });
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({ code: 'CARD_NOT_REDEEMABLE' });

    await cardNewsDelivered(t);
    // Both uses' news, in either order: news delivered in one run share its time (ADR 024), so the order of
    // created_at does not tell them apart (this once read the first row as the first use's, and failed when
    // the two came in one run).
    const alerts = await t.database.pool.query<{ title: string; body: string }>(
      "SELECT title, body FROM notifications WHERE account_id = $1 AND kind = 'card_redeemed'",
      [buyer.account.id],
    );
    expect(alerts.rows.map((row) => row.title)).toEqual([
      'Your card was just used',
      'Your card was just used',
    ]);
    const bodies = alerts.rows.map((row) => row.body).sort();
    expect(bodies).toEqual([
      expect.stringMatching(/^₦2,500\.00 was spent at .+\. ₦7,500\.00 is left on the card\./),
      expect.stringMatching(/^₦7,500\.00 was spent at .+\. ₦0\.00 is left on the card\./),
    ]);
    for (const body of bodies) expect(body).toContain(seller.input.name);
  });

  it('answers a redemption exactly as reading it back does (with and without a reference)', async () => {
    const { seller, card } = await soldCard(1_000_000);
    for (const body of [
      { code: card.code, amount: 1_000, reference: 'TILL-2 #9' },
      { code: card.code, amount: 2_000 },
    ]) {
      const made = await redeem(seller, body);
      expect(made.statusCode, made.body).toBe(201);
      const receipt = made.json() as Redemption;
      const read = await seller.request({ method: 'GET', url: `/api/v1/redemptions/${receipt.id}` });
      expect(read.statusCode, read.body).toBe(200);
      expect(receipt).toEqual(read.json());
    }
  });

  it('gives one answer for an unknown code, another business’s code and a mistyped one', async () => {
    const { card } = await soldCard();
    const other = await business();
    const last = card.code.at(-1)!;
    const typo = card.code.slice(0, -1) + (last === '0' ? '1' : '0');
    const answers = await Promise.all(
      [card.code, typo, '0000-0000-0000-0000-0', 'nonsense'].map((code) => lookUp(other, code)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(answers[0]!.json());
    }
  });

  it('never spends another business’s card: the same answer as an unknown code, and nothing written', async () => {
    const { seller, card } = await soldCard(1_000_000);
    const other = await business();
    const unknown = await redeem(other, { code: '0000-0000-0000-0000-0', amount: 100 });
    expect(unknown.statusCode).toBe(404);
    for (const payload of [
      { code: card.code, amount: 100 },
      { code: card.code, all: true },
    ]) {
      const res = await redeem(other, payload, randomUUID());
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
    }
    const [row] = (
      await t.database.pool.query(
        `SELECT c.balance, (SELECT count(*) FROM card_activities a WHERE a.purchased_card_id = c.id)::int AS n
           FROM purchased_cards c WHERE c.id = $1`,
        [card.id],
      )
    ).rows;
    // Nothing written: the card as sold, its own issue with no activity (ADR 039).
    expect(row).toEqual({ balance: '1000000', n: 0 });
    // Its own business still can.
    expect((await redeem(seller, { code: card.code, amount: 100 })).statusCode).toBe(201);
  });

  it('refuses more than the balance, and never lets the balance go below zero: 20 tills at once', async () => {
    const { seller, card } = await soldCard(1_000_000);
    const over = await redeem(seller, { code: card.code, amount: 1_000_001 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'CARD_BALANCE_TOO_LOW' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => redeem(seller, { code: card.code, amount: 100_000 })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(10);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    const [row] = (
      await t.database.pool.query('SELECT balance, status FROM purchased_cards WHERE id = $1', [card.id])
    ).rows;
    expect(row).toEqual({ balance: '0', status: 'redeemed' });
  });

  it('replays a retry with the same Idempotency-Key (once, even 20 at once) and refuses the key with another body', async () => {
    const { seller, card } = await soldCard(1_000_000);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => redeem(seller, { code: card.code, amount: 100_000 }, key)),
    );
    const ids = new Set(results.map((r) => (r.json() as Redemption).id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(19);
    const other = await redeem(seller, { code: card.code, amount: 200_000 }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    const [row] = (
      await t.database.pool.query('SELECT balance FROM purchased_cards WHERE id = $1', [card.id])
    ).rows;
    expect(row.balance).toBe('900000');
  });

  it('replays "redeem all" retried 20 at once with one key after the card is spent, and a keyed reversal retried 5 at once', async () => {
    const { seller, card } = await soldCard(300_000);
    const key = randomUUID();
    const spent = await Promise.all(
      Array.from({ length: 20 }, () => redeem(seller, { code: card.code, all: true }, key)),
    );
    expect(spent.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201].sort());
    const receipts = spent.map((r) => r.json() as Redemption);
    expect(new Set(receipts.map((r) => r.id)).size).toBe(1);
    expect(receipts.every((r) => r.amount.amount === 300_000 && r.balanceAfter.amount === 0)).toBe(true);

    const reverseKey = randomUUID();
    const reversals = await Promise.all(
      Array.from({ length: 5 }, () =>
        seller.request({
          method: 'POST',
          url: `/api/v1/redemptions/${receipts[0]!.id}/reversal`,
          headers: { 'idempotency-key': reverseKey },
        }),
      ),
    );
    expect(reversals.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(reversals.map((r) => (r.json() as Redemption).id)).size).toBe(1);
    const [row] = (
      await t.database.pool.query('SELECT balance, status FROM purchased_cards WHERE id = $1', [card.id])
    ).rows;
    expect(row).toEqual({ balance: '300000', status: 'active' });
  });

  it('reverses a redemption once, as a new activity, and the holder sees it', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const receipt = (await redeem(seller, { code: card.code, all: true })).json() as Redemption;
    const reversals = await Promise.all(
      Array.from({ length: 5 }, () =>
        seller.request({ method: 'POST', url: `/api/v1/redemptions/${receipt.id}/reversal` }),
      ),
    );
    expect(reversals.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(reversals.filter((r) => r.statusCode === 409)).toHaveLength(4);
    const held = await cardOf(buyer, card.id);
    expect(held.status).toBe('active');
    expect(held.balance.amount).toBe(1_000_000);
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'redeem', 'reverse']);
    expect(held.activities[1]!.reversed).toBe(true);
    const again = await seller.request({ method: 'GET', url: `/api/v1/redemptions/${receipt.id}` });
    expect((again.json() as Redemption).reversedAt).not.toBeNull();
    const stranger = await business();
    const foreign = await stranger.request({
      method: 'POST',
      url: `/api/v1/redemptions/${receipt.id}/reversal`,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses a frozen card with words, and redeems again once unfrozen', async () => {
    const { seller, buyer, card } = await soldCard(500_000);
    const frozen = await buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` });
    expect(frozen.statusCode, frozen.body).toBe(200);
    const refused = await redeem(seller, { code: card.code, amount: 1000 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('frozen');
    await buyer.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/unfreeze` });
    expect((await redeem(seller, { code: card.code, amount: 1000 })).statusCode).toBe(201);
  });

  it('counts look-ups before checking the code: of 40 at once over a limit of 30, exactly 30 get through', async () => {
    const seller = await business();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => lookUp(seller, '0000-0000-0000-0000-0')),
    );
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(30);
    const limited = results.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(10);
    expect(limited[0]!.json().message).toMatch(/Try again in \d+ (seconds?|minutes?)\./);
  });
});

describe('a redemption decided on a card that changed meanwhile', () => {
  async function seenCard(cardId: string) {
    const [row] = await t.database.db.select().from(purchasedCards).where(eq(purchasedCards.id, cardId));
    return row!;
  }
  async function counts(cardId: string) {
    const result = await t.database.pool.query(
      `SELECT (SELECT count(*) FROM card_activities WHERE purchased_card_id = $1)::int AS activities,
              (SELECT balance FROM purchased_cards WHERE id = $1)::text AS balance`,
      [cardId],
    );
    return result.rows[0] as { activities: number; balance: string };
  }
  const spend = (seen: Awaited<ReturnType<typeof seenCard>>, amount: bigint, business: string) =>
    writeActivity(
      t.database.db,
      {
        purchasedCardId: seen.id,
        kind: 'redeem',
        amount: -amount,
        balanceAfter: seen.balance - amount,
        actorId: business,
      },
      { balance: seen.balance - amount, status: 'active' },
      { seen },
    );

  it('writes nothing when the card is no longer as it was read; as read, it writes the activity and the balance', async () => {
    // A card that expires: its expiry is kept to the microsecond, the app reads it to the millisecond.
    const { seller, card } = await soldCard(1_000_000, 12);
    const seen = await seenCard(card.id);
    // Another till spends the card after this one read it.
    expect((await redeem(seller, { code: card.code, amount: 100 })).statusCode).toBe(201);
    const before = await counts(card.id);
    expect(before.balance).toBe('999900');

    expect(await spend(seen, 5_000n, seen.businessId)).toBeUndefined();
    expect(await counts(card.id)).toEqual(before);

    // The holder froze it: the balance is as read, the status is not.
    const fresh = await seenCard(card.id);
    await t.database.pool.query(`UPDATE purchased_cards SET status = 'frozen' WHERE id = $1`, [card.id]);
    expect(await spend(fresh, 5_000n, seen.businessId)).toBeUndefined();
    await t.database.pool.query(`UPDATE purchased_cards SET status = 'active' WHERE id = $1`, [card.id]);
    expect(await counts(card.id)).toEqual(before);

    const written = await spend(await seenCard(card.id), 5_000n, seen.businessId);
    expect(written?.id).toEqual(expect.any(String));
    expect(await counts(card.id)).toEqual({ activities: before.activities + 1, balance: '994900' });
  });

  it('20 tills spending one card at once each decide again until theirs is written: every one is, once', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000, 12);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => redeem(seller, { code: card.code, amount: 1_000 + i })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const total = Array.from({ length: 20 }, (_, i) => 1_000 + i).reduce((a, b) => a + b, 0);
    const after = await counts(card.id);
    expect(after.balance).toBe(String(1_000_000 - total));
    // The 20 redemptions, each once (a card is its own issue and has no activity for it, ADR 039).
    expect(after.activities).toBe(20);
    await cardNewsDelivered(t);
    const alerts = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM notifications WHERE account_id = $1 AND kind = 'card_redeemed'`,
      [buyer.account.id],
    );
    expect(alerts.rows[0].n).toBe(20);
    // Each answer's balance is one step of the card's history, never the same step twice.
    const afters = results.map((r) => (r.json() as Redemption).balanceAfter.amount).sort((a, b) => b - a);
    expect(new Set(afters).size).toBe(20);
    expect(afters.at(-1)).toBe(1_000_000 - total);
  });
});

describe('checking a balance (public)', () => {
  it('answers balance, status and expiry without a login, and one message for every failure', async () => {
    const { card } = await soldCard(750_000);
    const ip = freshIp();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/balance-checks',
      payload: { code: card.code },
      remoteAddress: ip,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      balance: { amount: 750_000, currency: 'NGN' },
      status: 'active',
      expiresAt: null,
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/balance-checks',
      payload: { code: 'XXXX' },
      remoteAddress: ip,
    });
    expect(bad.statusCode).toBe(404);
  });
});

describe('many tills in one statement (ADR 027)', () => {
  const hashOf = async (cardId: string) =>
    (await t.database.pool.query('SELECT code_hash FROM purchased_cards WHERE id = $1', [cardId])).rows[0]
      .code_hash as string;
  const balanceOf = async (cardId: string) =>
    (await t.database.pool.query('SELECT balance::text FROM purchased_cards WHERE id = $1', [cardId])).rows[0]
      .balance as string;

  it('decides each spend on its own card and limits, counts a shared limit in order, and answers each in order', async () => {
    const first = await business();
    const other = await business();
    const holder = await user();
    const [a, b] = [
      await buyCard(t, holder, await createDesign(first, 1_000_000)),
      await buyCard(t, holder, await createDesign(first, 1_000_000)),
    ];
    const [c, d] = [
      await buyCard(t, holder, await createDesign(other, 1_000_000)),
      await buyCard(t, holder, await createDesign(other, 1_000_000)),
    ];
    const shared = { key: `test:${randomUUID()}`, max: 1, windowSeconds: 60 };
    const own = () => ({ key: `test:${randomUUID()}`, max: 5, windowSeconds: 60 });
    const spend = async (card: { id: string }, actorId: string, amount: bigint, limits = [own()]) => ({
      limits,
      codeHash: await hashOf(card.id),
      actorId,
      key: undefined,
      amount,
      reference: null,
      requestHash: randomUUID(),
    });
    const spent = await spendCardsByCode(t.database.db, [
      await spend(a, first.account.id, 100n, [shared]),
      await spend(c, first.account.id, 100n), // another business's card
      await spend(b, first.account.id, 100n, [shared]), // the shared limit's second try: over its budget
      await spend(d, other.account.id, 2_000_000n), // more than the balance
      await spend(c, other.account.id, 250n),
    ]);
    expect(spent.map((s) => s.written?.balanceAfter ?? null)).toEqual([999_900n, null, null, null, 999_750n]);
    expect(spent.map((s) => s.written?.card.id ?? null)).toEqual([a.id, null, null, null, c.id]);
    expect(spent[0]!.counted).toEqual([{ key: shared.key, hits: 1, retry: expect.any(Number) }]);
    expect(spent[2]!.counted).toEqual([{ key: shared.key, hits: 2, retry: expect.any(Number) }]);
    expect(await Promise.all([a, b, c, d].map((card) => balanceOf(card.id)))).toEqual([
      '999900',
      '1000000',
      '999750',
      '1000000',
    ]);
    const limit = await t.database.pool.query('SELECT hits FROM rate_limits WHERE key = $1', [shared.key]);
    expect(limit.rows).toEqual([{ hits: 2 }]);
  });

  it('40 redemptions at once by one business over a limit of 30 a minute: exactly 30 are looked up', async () => {
    const seller = await business();
    // 40 different codes (each well formed, none a card), so the tries can share statements.
    const codes = Array.from({ length: 40 }, () => {
      const body = Array.from(randomBytes(16), (byte) => CODE_ALPHABET[byte % 32]).join('');
      return formatCode(body);
    });
    const answers = await Promise.all(codes.map((code) => redeem(seller, { code, amount: 100 })));
    expect(answers.filter((r) => r.statusCode === 404)).toHaveLength(30);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(10);
  });
});
