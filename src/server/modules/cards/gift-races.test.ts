import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gift } from '../../../shared/cards/gifts';
import { unique } from '../../../../tests/fixtures/factories';
import {
  actOnGift,
  activityKinds,
  cardRow,
  heldCard,
  sendGift,
  sentGift,
  tokenFor,
  usernameOf,
} from '../../../../tests/fixtures/gifts';
import { createTestApp, freshIp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { createCodeVault } from './cards.service';
import { runExpiryJob } from './expiry.service';
import { runGiftJob } from './gifts.service';

/**
 * Gifts under attack and at once: parallel sends of one card, accept racing cancel, decline and itself,
 * hostile input, and what happens to a gift when its card expires.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const user = () => registerAndLogin(t.app, 'user');
const email = () => `race-${unique()}@example.test`;
const jobDeps = () => ({
  db: t.database.db,
  config: t.config,
  codes: createCodeVault(t.config.CODE_ENCRYPTION_KEY),
});

async function openGifts(cardId: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM gifts WHERE purchased_card_id = $1 AND status IN ('scheduled', 'pending')",
    [cardId],
  );
  return rows[0]!.n;
}

describe('at once', () => {
  it('20 sends of one card in parallel: exactly one gift and one gift_sent activity', async () => {
    const { sender, card } = await heldCard(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendGift(sender, card.id, { recipient: `r${i}-${email()}` })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json().code).toBe('CARD_STATE_CONFLICT');
    }
    expect(await openGifts(card.id)).toBe(1);
    expect(await activityKinds(t, card.id)).toEqual(['issue', 'gift_sent']);
  });

  it('the same send twice at once: one gift', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const answers = await Promise.all([
      sendGift(sender, card.id, { recipient: to }),
      sendGift(sender, card.id, { recipient: to }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await openGifts(card.id)).toBe(1);
  });

  it('★ accept against cancel: exactly one wins; the card ends with the recipient or the sender, never both', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const { sender, card } = await heldCard(t);
      const friend = await user();
      const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
      const [accept, cancel] = await Promise.all([
        actOnGift(t, friend, gift.id, 'accept'),
        actOnGift(t, sender, gift.id, 'cancel'),
      ]);
      expect([accept.statusCode, cancel.statusCode].sort()).toEqual([200, 409]);
      const loser = accept.statusCode === 409 ? accept : cancel;
      expect(loser.json().code).toBe('GIFT_STATE_CONFLICT');
      const row = await cardRow(t, card.id);
      expect(row.status).toBe('active');
      const kinds = await activityKinds(t, card.id);
      if (accept.statusCode === 200) {
        outcomes.add('accepted');
        expect(row.owner_id).toBe(friend.account.id);
        expect(kinds).toEqual(['issue', 'gift_sent', 'transfer']);
        expect((accept.json() as Gift).status).toBe('accepted');
      } else {
        outcomes.add('cancelled');
        expect(row.owner_id).toBe(sender.account.id);
        expect(kinds).toEqual(['issue', 'gift_sent', 'gift_returned']);
        expect((cancel.json() as Gift).status).toBe('cancelled');
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('★ two accepts of one link (two accounts at once): one card, one transfer', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to });
    const token = await tokenFor(t, to, gift.id);
    const [a, b] = [await user(), await user()];
    const answers = await Promise.all([
      actOnGift(t, a, gift.id, 'accept', { token }),
      actOnGift(t, b, gift.id, 'accept', { token }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = answers[0]!.statusCode === 200 ? a : b;
    expect((await cardRow(t, card.id)).owner_id).toBe(winner.account.id);
    expect((await activityKinds(t, card.id)).filter((k) => k === 'transfer')).toHaveLength(1);
  });

  it('ten accepts by the named recipient at once, and accept against decline: one outcome each', async () => {
    const { sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => actOnGift(t, friend, gift.id, 'accept')),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(9);
    expect(await activityKinds(t, card.id)).toEqual(['issue', 'gift_sent', 'transfer']);

    const other = await heldCard(t);
    const g2 = await sentGift(other.sender, other.card.id, { recipient: usernameOf(friend) });
    const [acc, dec] = await Promise.all([
      actOnGift(t, friend, g2.id, 'accept'),
      actOnGift(t, friend, g2.id, 'decline'),
    ]);
    expect([acc.statusCode, dec.statusCode].sort()).toEqual([200, 409]);
    const owner = (await cardRow(t, other.card.id)).owner_id;
    expect(owner).toBe(acc.statusCode === 200 ? friend.account.id : other.sender.account.id);
  });
});

describe('hostile input', () => {
  it('refuses NUL and control characters, over-long and wrong-typed fields with 400, never a 500', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const bodies: unknown[] = [
      { recipient: `a\u0000b@example.test` },
      { recipient: `user\u0000name` },
      { recipient: to, recipientName: 'Ada\u0000' },
      { recipient: to, recipientName: 'Ada\u001b[31m' },
      { recipient: to, message: 'Hi\u0000there' },
      { recipient: to, message: 'Hi\u0007' },
      { recipient: to, message: 'x'.repeat(501) },
      { recipient: to, recipientName: 'n'.repeat(101) },
      { recipient: 'r'.repeat(300) + '@example.test' },
      { recipient: to, message: 'y'.repeat(200_000) },
      { recipient: ['a@b.cd'] },
      { recipient: { email: to } },
      { recipient: 42 },
      { recipient: null },
      { recipient: to, message: 12 },
      { recipient: to, deliverAt: true },
      { recipient: to, deliverAt: '99999-01-01T00:00:00Z' },
      { recipient: '' },
      { recipient: '   ' },
      { recipient: 'a b@example.test' },
      {},
    ];
    for (const payload of bodies) {
      const res = await sender.request({
        method: 'POST',
        url: `/api/v1/purchased-cards/${card.id}/gifts`,
        payload: payload as Record<string, unknown>,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    for (const raw of ['[]', '"a@b.cd"', 'null', '{"recipient":']) {
      const res = await sender.request({
        method: 'POST',
        url: `/api/v1/purchased-cards/${card.id}/gifts`,
        payload: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, raw).toBe(400);
    }
    const badId = await sender.request({
      method: 'POST',
      url: '/api/v1/purchased-cards/not-a-uuid/gifts',
      payload: { recipient: to },
    });
    expect(badId.statusCode).toBe(400);
    expect(await activityKinds(t, card.id)).toEqual(['issue']);

    const fine = await sentGift(sender, card.id, {
      recipient: to,
      recipientName: 'Ada Ọ̀ṣun 🎁',
      message: `${'é'.repeat(499)}\n`,
    });
    expect(fine.recipientName).toBe('Ada Ọ̀ṣun 🎁');
    expect(fine.message).toBe('é'.repeat(499));
  });

  it('refuses hostile tokens and ids on the gift routes with 400 or 404, never a 500', async () => {
    const { sender, card } = await heldCard(t);
    const gift = await sentGift(sender, card.id, { recipient: email() });
    const stranger = await user();
    for (const token of [42, 'x'.repeat(201), '../../etc', 'a\u0000b', ['t'], { t: 1 }]) {
      const res = await actOnGift(t, stranger, gift.id, 'accept', { token });
      expect(res.statusCode, JSON.stringify(token)).toBe(400);
    }
    for (const url of [
      '/api/v1/gifts/nope/accept',
      '/api/v1/gifts/1%00/decline',
      '/api/v1/gifts/%27--/cancel',
    ]) {
      const res = await stranger.request({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(400);
    }
    const patch = await stranger.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: email() },
    });
    expect(patch.statusCode).toBe(404);
    const nobody = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: email() },
    });
    expect(nobody.statusCode).toBe(401);
    const noSession = await t.app.inject({ method: 'POST', url: `/api/v1/gifts/${gift.id}/cancel` });
    expect(noSession.statusCode).toBe(401);
    const list = await stranger.request({ method: 'GET', url: '/api/v1/gifts?limit=500&direction=both' });
    expect(list.statusCode).toBe(400);
  });
});

describe('a gift whose card expires', () => {
  it('cannot be accepted, goes back to the sender with the gift job, and the expiry job then marks the card', async () => {
    const { seller, sender, card } = await heldCard(t, 1_000_000, 6);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    await t.database.pool.query(
      "UPDATE purchased_cards SET expires_at = now() - interval '1 second' WHERE id = $1",
      [card.id],
    );

    const accept = await actOnGift(t, friend, gift.id, 'accept');
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toMatchObject({ code: 'GIFT_STATE_CONFLICT', details: { status: 'expired' } });

    // The card expiry job leaves a card in a gift to the gift job (which locks the gift first).
    await runExpiryJob(jobDeps());
    expect((await cardRow(t, card.id)).status).toBe('gift_pending');

    // Another test file's gift job may hold this gift at that moment (each skips what another holds), so the
    // job runs until the gift has moved on, as a later tick would (a CI run once read 'pending' here).
    const statusAfterJob = async () => {
      await runGiftJob(jobDeps());
      return ((await sender.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })).json() as Gift)
        .status;
    };
    await expect.poll(statusAfterJob, { timeout: 10_000 }).toBe('expired');
    const { rows } = await t.database.pool.query<{ body: string }>(
      "SELECT body FROM notifications WHERE account_id = $1 AND kind = 'gift_returned'",
      [sender.account.id],
    );
    expect(rows.map((r) => r.body)).toEqual([
      `The ₦10,000.00 ${seller.input.name} gift card you sent to ${usernameOf(friend)} expired before it was accepted. It is back in My Gift Cards.`,
    ]);
    expect((await cardRow(t, card.id)).owner_id).toBe(sender.account.id);

    await runExpiryJob(jobDeps());
    expect((await cardRow(t, card.id)).status).toBe('expired');
    expect(await activityKinds(t, card.id)).toEqual(['issue', 'gift_sent', 'gift_returned', 'expire']);
    const redeem = await seller.request({
      method: 'POST',
      url: '/api/v1/redemptions',
      payload: { code: card.code, amount: 100 },
      remoteAddress: freshIp(),
    });
    expect(redeem.statusCode).toBe(409);
  });

  it('an expired card cannot be sent', async () => {
    const { sender, card } = await heldCard(t, 1_000_000, 6);
    await t.database.pool.query(
      "UPDATE purchased_cards SET expires_at = now() - interval '1 second' WHERE id = $1",
      [card.id],
    );
    const res = await sendGift(sender, card.id, { recipient: email() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT', message: 'This card has expired.' });
  });
});
