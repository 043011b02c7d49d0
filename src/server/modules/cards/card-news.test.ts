import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redemption } from '../../../shared/cards/schemas';
import { buyCard, cardNewsDelivered, createDesign, redeemAt } from '../../../../tests/fixtures/cards';
import { onFreshCopy, planOf } from '../../../../tests/fixtures/plans';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { cardNewsProbe, writeActivity } from './cards.repository';
import { deliverCardNews } from './redemptions.service';

/**
 * ADR 024: the holder's news of a redemption or a reversal is written after the use commits, by any
 * instance's worker: exactly once per use, never for a use that rolled back, never skipped past a use whose
 * transaction is still open.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

async function soldCard(amount = 1_000_000) {
  const seller = await registerAndLogin(t.app, 'business');
  const buyer = await registerAndLogin(t.app, 'user');
  const card = await buyCard(t, buyer, await createDesign(seller, amount));
  return { seller, buyer, card };
}

async function newsOf(accountId: string) {
  const result = await t.database.pool.query<{ kind: string; title: string; body: string; link: string }>(
    `SELECT kind, title, body, link FROM notifications
      WHERE account_id = $1 AND kind IN ('card_redeemed', 'card_reversed') ORDER BY created_at, kind`,
    [accountId],
  );
  return result.rows;
}

async function mailsOf(accountId: string) {
  const result = await t.database.pool.query<{ subject: string }>(
    `SELECT subject FROM mail_outbox WHERE account_id = $1 AND kind = 'card_redeemed'`,
    [accountId],
  );
  return result.rows.map((r) => r.subject);
}

describe('the holder’s news of a use', () => {
  it('follows a redemption and its reversal: what, where, what is left; once each, with one mail for the use', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const used = await redeemAt(seller, { code: card.code, amount: 250_000 });
    expect(used.statusCode, used.body).toBe(201);
    const reversed = await seller.request({
      method: 'POST',
      url: `/api/v1/redemptions/${(used.json() as Redemption).id}/reversal`,
    });
    expect(reversed.statusCode, reversed.body).toBe(201);
    // Written after the commit, not with it.
    expect(await newsOf(buyer.account.id)).toEqual([]);

    await cardNewsDelivered(t);
    await cardNewsDelivered(t);
    const link = `/user-dashboard/mycards/${card.id}`;
    expect(await newsOf(buyer.account.id)).toEqual([
      {
        kind: 'card_redeemed',
        title: 'Your card was just used',
        body: `₦2,500.00 was spent at ${seller.input.name}. ₦7,500.00 is left on the card. Not you? Freeze the card now.`,
        link,
      },
      {
        kind: 'card_reversed',
        title: 'A use of your card was reversed',
        body: `${seller.input.name} gave back ₦2,500.00. ₦10,000.00 is on the card now.`,
        link,
      },
    ]);
    expect(await mailsOf(buyer.account.id)).toEqual(['Your Giftmart card was just used']);
  });

  it('from six workers at once while 30 redemptions are made: every use has its news exactly once', async () => {
    const cards = await Promise.all([soldCard(), soldCard(), soldCard()]);
    const redemptions = cards.flatMap(({ seller, card }) =>
      Array.from({ length: 10 }, (_, i) => redeemAt(seller, { code: card.code, amount: 100 + i })),
    );
    let running = true;
    const worker = async () => {
      let written = 0;
      while (running) written += await deliverCardNews({ db: t.database.db });
      return written;
    };
    const workers = Array.from({ length: 6 }, worker);
    const answers = await Promise.all(redemptions);
    running = false;
    await Promise.all(workers);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    await cardNewsDelivered(t);
    for (const { buyer } of cards) {
      const news = await newsOf(buyer.account.id);
      expect(news).toHaveLength(10);
      expect(new Set(news.map((n) => n.body)).size).toBe(10);
      expect(await mailsOf(buyer.account.id)).toHaveLength(10);
    }
  });

  it('waits for a use whose transaction is still open, and never writes one that rolled back', async () => {
    const { seller, buyer, card } = await soldCard(1_000_000);
    const spend = (amount: bigint, balance: bigint) => (tx: typeof t.database.db) =>
      writeActivity(
        tx,
        {
          purchasedCardId: card.id,
          kind: 'redeem',
          amount: -amount,
          balanceAfter: balance - amount,
          actorId: seller.account.id,
        },
        { balance: balance - amount },
      );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    try {
      // A use written and not committed yet: its card's lock taken first, as a redemption takes it.
      const inFlight = t.database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1 FROM purchased_cards WHERE id = ${card.id}::uuid FOR UPDATE`);
        await spend(1_000n, 1_000_000n)(tx as unknown as typeof t.database.db);
        opened();
        await held;
      });
      await open;
      // Another use commits meanwhile, and news is delivered while the first is still open: the open one's
      // news cannot be written yet, and nothing may be skipped past it, so the later one's waits too.
      const other = await soldCard(1_000_000);
      const later = await redeemAt(other.seller, { code: other.card.code, amount: 500 });
      expect(later.statusCode, later.body).toBe(201);
      for (let i = 0; i < 3; i += 1) await deliverCardNews({ db: t.database.db });
      expect(await newsOf(buyer.account.id)).toEqual([]);
      expect(await newsOf(other.buyer.account.id)).toEqual([]);
      release();
      await inFlight;
      await cardNewsDelivered(t);
      expect((await newsOf(buyer.account.id)).map((n) => n.body)).toEqual([
        `₦10.00 was spent at ${seller.input.name}. ₦9,990.00 is left on the card. Not you? Freeze the card now.`,
      ]);
      expect(await newsOf(other.buyer.account.id)).toHaveLength(1);

      // Rolled back: the card and its news stay as they were.
      await expect(
        t.database.db.transaction(async (tx) => {
          await spend(2_000n, 999_000n)(tx as unknown as typeof t.database.db);
          throw new Error('changed its mind');
        }),
      ).rejects.toThrow('changed its mind');
      await cardNewsDelivered(t);
      expect(await newsOf(buyer.account.id)).toHaveLength(1);
    } finally {
      release();
    }
  });
});

describe("the news' probe (issue 14)", () => {
  it('reads the newest use from the end of its index, not every sale, when nothing is new', async () => {
    // 20,000 sales' issues (no news) and one old use, on a table the planner has statistics for.
    const fill = `INSERT INTO card_activities (purchased_card_id, kind, amount, balance_after, seq, xact)
                  SELECT gen_random_uuid(), 'issue'::card_activity_kind, 100, 100, 1, '3'::xid8
                    FROM generate_series(1, 20000)
                  UNION ALL SELECT gen_random_uuid(), 'redeem', -10, 90, 2, '3'::xid8`;
    await onFreshCopy('card_activities', fill, async (tx) => {
      await tx.execute(sql`ANALYZE card_activities`);
      const lines = await planOf(tx, cardNewsProbe());
      expect(lines).toMatch(/Index Only Scan Backward using card_activities_xact_idx on card_activities/);
      expect(lines).not.toMatch(/Seq Scan on card_activities/);
      expect((await tx.execute<{ waiting: boolean }>(cardNewsProbe())).rows[0]!.waiting).toBe(false);
    });
  });
});
