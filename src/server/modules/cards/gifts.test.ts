import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gift, GiftPage } from '../../../shared/cards/gifts';
import type { PurchasedCardDetail } from '../../../shared/cards/schemas';
import { GIFT_RECEIVED_TITLE } from '../../../shared/notifications/schemas';
import { cardOf } from '../../../../tests/fixtures/cards';
import {
  actOnGift,
  activityKinds,
  cardRow,
  heldCard,
  mailsTo,
  notificationsOf,
  sendGift,
  sentGift,
  tokenFor,
  usernameOf,
} from '../../../../tests/fixtures/gifts';
import { unique } from '../../../../tests/fixtures/factories';
import {
  createTestApp,
  freshIp,
  registerAndLogin,
  sameOrigin,
  type TestApp,
} from '../../../../tests/fixtures/test-app';

/**
 * Gifts over /api/v1 on the real PostgreSQL (issue 11): sending a held card by e-mail or username, what
 * the recipient and the sender may do while it waits, who may see it, and what the card does meanwhile.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_DELAY_MS: '0' });
});
afterAll(() => t.close());

const user = (overrides: { email?: string; name?: string } = {}) =>
  registerAndLogin(t.app, 'user', overrides);
const business = () => registerAndLogin(t.app, 'business');
const email = () => `friend-${unique()}@example.test`;

function redeem(seller: Awaited<ReturnType<typeof business>>, code: string, amount: number) {
  return seller.request({
    method: 'POST',
    url: '/api/v1/redemptions',
    payload: { code, amount },
    remoteAddress: freshIp(),
  });
}

function preview(giftId: string, token?: string, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/gifts/${giftId}/preview`,
    payload: token === undefined ? {} : { token },
    headers: sameOrigin,
    remoteAddress: ip,
  });
}

describe('sending a held card', () => {
  it('to an address with no account: pending, the card held, a mail with a single-use link and no notification', async () => {
    const { seller, sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, {
      recipient: `  ${to.toUpperCase()} `,
      recipientName: 'Ada',
      message: 'Happy birthday!\nEnjoy.',
    });
    expect(gift).toMatchObject({
      status: 'pending',
      direction: 'sent',
      senderName: sender.input.name,
      recipient: to.toUpperCase(),
      recipientName: 'Ada',
      message: 'Happy birthday!\nEnjoy.',
      purchasedCardId: card.id,
      deliverAt: null,
      endedAt: null,
      card: { businessName: seller.input.name, balance: { amount: 1_000_000, currency: 'NGN' } },
    });
    expect(Date.parse(gift.expiresAt!) - Date.parse(gift.sentAt!)).toBe(30 * 24 * 60 * 60 * 1000);

    const held = await cardOf(sender, card.id);
    expect(held.status).toBe('gift_pending');
    expect(held.activities.map((a) => [a.kind, a.amount.amount, a.balanceAfter.amount])).toEqual([
      ['issue', 1_000_000, 1_000_000],
      ['gift_sent', 0, 1_000_000],
    ]);

    const mails = await mailsTo(t, to, 'gift_received');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe(to);
    expect(mails[0]!.content.paragraphs.join('\n')).toContain(
      `${sender.input.name} sent you a ₦10,000.00 ${seller.input.name} gift card.`,
    );
    expect(mails[0]!.content.paragraphs.join('\n')).toContain('Happy birthday!');
    const token = await tokenFor(t, to, gift.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    const { rows } = await t.database.pool.query<{ token_hash: string; recipient_email: string }>(
      'SELECT token_hash, recipient_email FROM gifts WHERE id = $1',
      [gift.id],
    );
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0]!.recipient_email).toBe(to);
  });

  it('to a username (with or without @): the user gets the notification and the mail, at their own address', async () => {
    const { seller, sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: `@${usernameOf(friend).toUpperCase()}` });
    expect(gift.status).toBe('pending');
    const rows = await notificationsOf(t, friend.account.id, 'gift_received');
    expect(rows).toEqual([
      {
        kind: 'gift_received',
        title: GIFT_RECEIVED_TITLE,
        body: `${sender.input.name} sent you a ₦10,000.00 ${seller.input.name} gift card.`,
        link: `/gifts/${gift.id}`,
      },
    ]);
    const mails = await mailsTo(t, friend.input.email, 'gift_received');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.content.action!.path).toMatch(new RegExp(`^/gifts/${gift.id}#token=`));

    const other = await heldCard(t);
    const second = await sentGift(other.sender, other.card.id, { recipient: usernameOf(friend) });
    expect(second.status).toBe('pending');
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(2);
  });

  it('to an existing user’s e-mail in any case: the gift names their account', async () => {
    const { sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: friend.input.email.toUpperCase() });
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(1);
    const seen = await friend.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({ direction: 'received', status: 'pending', purchasedCardId: null });
  });

  it('refuses a recipient who cannot receive it, saying why (422), and holds nothing', async () => {
    const { sender, card } = await heldCard(t);
    const shop = await business();
    const cases: [string, string][] = [
      ['nobody_' + unique().slice(0, 10), 'No Giftmart user has that username.'],
      [shop.input.email, 'That address belongs to a business; gift cards can be sent to people only.'],
      [usernameOf(sender), 'You cannot send a gift card to yourself.'],
      [`@${usernameOf(sender)}`, 'You cannot send a gift card to yourself.'],
      [sender.input.email.toUpperCase(), 'You cannot send a gift card to yourself.'],
    ];
    for (const [recipient, message] of cases) {
      const res = await sendGift(sender, card.id, { recipient });
      expect(res.statusCode, recipient).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'GIFT_RECIPIENT_INVALID',
        message,
        details: { fieldErrors: { recipient: [message] } },
      });
    }
    expect((await cardOf(sender, card.id)).status).toBe('active');
    expect(await activityKinds(t, card.id)).toEqual(['issue']);
  });

  it('sends only the owner’s active card with a balance', async () => {
    const { seller, sender, card } = await heldCard(t);
    const stranger = await user();
    const to = email();
    expect((await sendGift(stranger, card.id, { recipient: to })).statusCode).toBe(404);
    expect((await sendGift(stranger, randomUUID(), { recipient: to })).statusCode).toBe(404);
    const noSession = await t.app.inject({
      method: 'POST',
      url: `/api/v1/purchased-cards/${card.id}/gifts`,
      payload: { recipient: to },
    });
    expect(noSession.statusCode).toBe(401);
    expect((await sendGift(seller, card.id, { recipient: to })).statusCode).toBe(403);

    await sender.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` });
    const frozen = await sendGift(sender, card.id, { recipient: to });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json()).toMatchObject({ code: 'CARD_STATE_CONFLICT', message: 'This card is frozen.' });
    await sender.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/unfreeze` });

    expect((await redeem(seller, card.code, 1_000_000)).statusCode).toBe(201);
    const used = await sendGift(sender, card.id, { recipient: to });
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({
      code: 'CARD_STATE_CONFLICT',
      message: 'This card is used up: it has no balance left.',
    });
  });

  it('refuses a card already in a gift (409), the second send of the same card', async () => {
    const { sender, card } = await heldCard(t);
    await sentGift(sender, card.id, { recipient: email() });
    const again = await sendGift(sender, card.id, { recipient: email() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CARD_STATE_CONFLICT',
      message: 'This card is being sent as a gift: it cannot be used until the gift is accepted or returned.',
      details: { status: 'gift_pending' },
    });
  });

  it('schedules a gift for later: nothing is sent yet, and the recipient cannot see it', async () => {
    const { sender, card } = await heldCard(t);
    const friend = await user();
    const at = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend), deliverAt: at });
    expect(gift).toMatchObject({ status: 'scheduled', deliverAt: at, sentAt: null, expiresAt: null });
    expect((await cardOf(sender, card.id)).status).toBe('gift_pending');
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toEqual([]);
    expect(await mailsTo(t, friend.input.email, 'gift_received')).toEqual([]);
    expect((await friend.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })).statusCode).toBe(404);
    const accept = await actOnGift(t, friend, gift.id, 'accept');
    expect(accept.statusCode).toBe(404);
    const list = (
      await friend.request({ method: 'GET', url: '/api/v1/gifts?direction=received' })
    ).json() as GiftPage;
    expect(list.items).toEqual([]);
  });

  it('checks the delivery time: a moment ago is now; clearly past, over a year ahead or not a date is 400', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const cases: [unknown, string][] = [
      [new Date(Date.now() - 60 * 60 * 1000).toISOString(), 'Choose a delivery time in the future'],
      [new Date(Date.now() + 366 * 24 * 60 * 60 * 1000).toISOString(), 'at most 365 days ahead'],
      ['tomorrow', 'Enter a valid date and time.'],
      ['2026-02-30T10:00:00Z', 'Enter a valid date and time.'],
      [12345, ''],
    ];
    for (const [deliverAt, words] of cases) {
      const res = await sendGift(sender, card.id, { recipient: to, deliverAt });
      expect(res.statusCode, String(deliverAt)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.json().details.fieldErrors.deliverAt)).toContain(words);
    }
    expect(await activityKinds(t, card.id)).toEqual(['issue']);
    const justNow = new Date(Date.now() - 60 * 1000).toISOString();
    expect((await sentGift(sender, card.id, { recipient: to, deliverAt: justNow })).status).toBe('pending');
  });
});

describe('accepting', () => {
  it('★ moves the card to the recipient with a transfer activity and a new code; the old code is dead at the till', async () => {
    const { seller, sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    const before = await cardRow(t, card.id);

    const res = await actOnGift(t, friend, gift.id, 'accept');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: gift.id,
      status: 'accepted',
      direction: 'received',
      purchasedCardId: card.id,
    });

    const after = await cardRow(t, card.id);
    expect(after.owner_id).toBe(friend.account.id);
    expect(after.status).toBe('active');
    expect(after.code_hash).not.toBe(before.code_hash);
    const mine = await cardOf(friend, card.id);
    expect(mine.activities.map((a) => [a.kind, a.balanceAfter.amount])).toEqual([
      ['issue', 1_000_000],
      ['gift_sent', 1_000_000],
      ['transfer', 1_000_000],
    ]);
    expect(
      (await sender.request({ method: 'GET', url: `/api/v1/purchased-cards/${card.id}` })).statusCode,
    ).toBe(404);

    const old = await redeem(seller, card.code, 100);
    expect(old.statusCode).toBe(404);
    expect(old.json().code).toBe('CARD_CODE_NOT_FOUND');
    const newCode = (
      await friend.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/code` })
    ).json() as { code: string };
    expect(newCode.code).not.toBe(card.code);
    const spent = await redeem(seller, newCode.code, 250_000);
    expect(spent.statusCode, spent.body).toBe(201);

    expect(await notificationsOf(t, sender.account.id, 'gift_accepted')).toEqual([
      {
        kind: 'gift_accepted',
        title: 'Your gift was accepted',
        body: `${usernameOf(friend)} accepted the ₦10,000.00 ${seller.input.name} gift card you sent.`,
        link: `/gifts/${gift.id}`,
      },
    ]);
    expect(await mailsTo(t, sender.input.email, 'gift_accepted')).toHaveLength(1);
    expect(await notificationsOf(t, friend.account.id, 'card_received')).toHaveLength(1);

    // The sender sees the gift as it was handed on, never the recipient's spending, and no card.
    const senderView = (
      await sender.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })
    ).json() as Gift;
    expect(senderView).toMatchObject({
      direction: 'sent',
      status: 'accepted',
      purchasedCardId: null,
      card: { balance: { amount: 1_000_000 } },
    });
    const recipientView = (
      await friend.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })
    ).json() as Gift;
    expect(recipientView.card.balance.amount).toBe(750_000);

    const again = await actOnGift(t, friend, gift.id, 'accept');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'GIFT_STATE_CONFLICT', details: { status: 'accepted' } });
  });

  it('an address without an account: signing up with that address claims nothing; only the mailed link does', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to });
    // Addresses are not verified: whoever registers with it first must not see or take the gift.
    const newcomer = await user({ email: to.toUpperCase() });
    const list = (
      await newcomer.request({ method: 'GET', url: '/api/v1/gifts?direction=received' })
    ).json() as GiftPage;
    expect(list.items).toEqual([]);
    expect((await newcomer.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })).statusCode).toBe(404);
    expect((await actOnGift(t, newcomer, gift.id, 'accept')).statusCode).toBe(404);
    expect((await cardOf(sender, card.id)).status).toBe('gift_pending');
    const token = await tokenFor(t, to, gift.id);
    const res = await actOnGift(t, newcomer, gift.id, 'accept', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await cardOf(newcomer, card.id)).status).toBe('active');
    const after = (
      await newcomer.request({ method: 'GET', url: '/api/v1/gifts?direction=received' })
    ).json() as GiftPage;
    expect(after.items.map((g) => [g.id, g.status])).toEqual([[gift.id, 'accepted']]);
  });

  it('with the link’s token, any user account accepts it; a business cannot, the sender cannot, others see nothing', async () => {
    const { sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to });
    const token = await tokenFor(t, to, gift.id);
    const shop = await business();
    const stranger = await user();

    for (const who of [stranger, shop]) {
      expect((await who.request({ method: 'GET', url: `/api/v1/gifts/${gift.id}` })).statusCode).toBe(
        who === shop ? 403 : 404,
      );
      expect((await actOnGift(t, who, gift.id, 'accept')).statusCode).toBe(404);
      expect((await actOnGift(t, who, gift.id, 'decline')).statusCode).toBe(404);
      expect((await actOnGift(t, who, gift.id, 'cancel')).statusCode).toBe(who === shop ? 403 : 404);
    }
    const wrong = await actOnGift(t, stranger, gift.id, 'accept', {
      token: randomBytes(32).toString('base64url'),
    });
    expect(wrong.statusCode).toBe(404);
    const bizWithToken = await actOnGift(t, shop, gift.id, 'accept', { token });
    expect(bizWithToken.statusCode).toBe(403);
    expect(bizWithToken.json().message).toContain('Log in as a user');
    const self = await actOnGift(t, sender, gift.id, 'accept', { token });
    expect(self.statusCode).toBe(403);
    const noSession = await actOnGift(t, null, gift.id, 'accept', { token });
    expect(noSession.statusCode).toBe(401);

    const res = await actOnGift(t, stranger, gift.id, 'accept', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await cardRow(t, card.id)).owner_id).toBe(stranger.account.id);
    const { rows } = await t.database.pool.query<{ token_used: boolean; recipient_account_id: string }>(
      'SELECT token_used, recipient_account_id FROM gifts WHERE id = $1',
      [gift.id],
    );
    expect(rows[0]).toEqual({ token_used: true, recipient_account_id: stranger.account.id });
    const theirs = (await stranger.request({ method: 'GET', url: '/api/v1/gifts' })).json() as GiftPage;
    expect(theirs.items.map((g) => g.id)).toEqual([gift.id]);
  });

  it('refuses a pending gift past its 30 days (409 expired) until the job returns it', async () => {
    const { sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    await t.database.pool.query("UPDATE gifts SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      gift.id,
    ]);
    const res = await actOnGift(t, friend, gift.id, 'accept');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'GIFT_STATE_CONFLICT', details: { status: 'expired' } });
    expect((await cardRow(t, card.id)).owner_id).toBe(sender.account.id);
  });
});

describe('declining and cancelling', () => {
  it('declined with the link and no session: the card is the sender’s again, and they are told', async () => {
    const { seller, sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to });
    const token = await tokenFor(t, to, gift.id);
    const res = await actOnGift(t, null, gift.id, 'decline', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'declined', direction: 'received', purchasedCardId: null });

    const held = await cardOf(sender, card.id);
    expect(held.status).toBe('active');
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'gift_sent', 'gift_returned']);
    expect(await notificationsOf(t, sender.account.id, 'gift_declined')).toEqual([
      {
        kind: 'gift_declined',
        title: 'Your gift was declined',
        body: `${to} declined the ₦10,000.00 ${seller.input.name} gift card you sent. It is back in My Gift Cards.`,
        link: `/user-dashboard/mycards/${card.id}`,
      },
    ]);
    expect(await mailsTo(t, sender.input.email, 'gift_declined')).toHaveLength(1);
    expect((await redeem(seller, card.code, 100)).statusCode).toBe(201);

    const again = await actOnGift(t, null, gift.id, 'decline', { token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'GIFT_STATE_CONFLICT', details: { status: 'declined' } });
    expect((await actOnGift(t, null, gift.id, 'decline')).statusCode).toBe(404);
    expect((await actOnGift(t, sender, gift.id, 'decline')).statusCode).toBe(403);
  });

  it('declined by the named recipient in the app', async () => {
    const { sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    const res = await actOnGift(t, friend, gift.id, 'decline');
    expect(res.statusCode, res.body).toBe(200);
    expect((await cardRow(t, card.id)).owner_id).toBe(sender.account.id);
  });

  it('cancelled by the sender: the card comes back, the recipient is told it was withdrawn, and it can be sent again', async () => {
    const { seller, sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    expect((await actOnGift(t, friend, gift.id, 'cancel')).statusCode).toBe(404);
    const res = await actOnGift(t, sender, gift.id, 'cancel');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', purchasedCardId: card.id });
    expect((await cardOf(sender, card.id)).status).toBe('active');
    expect(await notificationsOf(t, friend.account.id, 'gift_cancelled')).toEqual([
      {
        kind: 'gift_cancelled',
        title: 'A gift was withdrawn',
        body: `${sender.input.name} withdrew the ${seller.input.name} gift card they sent you.`,
        link: `/gifts/${gift.id}`,
      },
    ]);
    const accept = await actOnGift(t, friend, gift.id, 'accept');
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toMatchObject({
      message: 'The sender cancelled this gift.',
      details: { status: 'cancelled' },
    });
    expect((await actOnGift(t, sender, gift.id, 'cancel')).statusCode).toBe(409);
    expect((await sentGift(sender, card.id, { recipient: usernameOf(friend) })).status).toBe('pending');
  });

  it('a scheduled gift can be cancelled before it goes out', async () => {
    const { sender, card } = await heldCard(t);
    const gift = await sentGift(sender, card.id, {
      recipient: email(),
      deliverAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    });
    const res = await actOnGift(t, sender, gift.id, 'cancel');
    expect(res.statusCode, res.body).toBe(200);
    expect((await cardOf(sender, card.id)).status).toBe('active');
  });
});

describe('correcting the address', () => {
  it('re-sends a pending gift with a new link: the old one stops working at once', async () => {
    const { sender, card } = await heldCard(t);
    const wrong = email();
    const gift = await sentGift(sender, card.id, { recipient: wrong, recipientName: 'Bola' });
    const oldToken = await tokenFor(t, wrong, gift.id);
    const friend = await user();

    const stranger = await user();
    const foreign = await stranger.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: friend.input.email },
    });
    expect(foreign.statusCode).toBe(404);
    const toShop = await sender.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: (await business()).input.email },
    });
    expect(toShop.statusCode).toBe(422);

    const res = await sender.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: friend.input.email },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'pending',
      recipient: friend.input.email,
      recipientName: 'Bola',
    });

    expect((await preview(gift.id, oldToken)).statusCode).toBe(404);
    expect((await actOnGift(t, stranger, gift.id, 'accept', { token: oldToken })).statusCode).toBe(404);
    expect((await actOnGift(t, null, gift.id, 'decline', { token: oldToken })).statusCode).toBe(404);
    const newToken = await tokenFor(t, friend.input.email, gift.id);
    expect(newToken).not.toBe(oldToken);
    expect((await preview(gift.id, newToken)).statusCode).toBe(200);
    expect(await notificationsOf(t, friend.account.id, 'gift_received')).toHaveLength(1);
    expect((await actOnGift(t, friend, gift.id, 'accept')).statusCode).toBe(200);

    const late = await sender.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: wrong },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'GIFT_STATE_CONFLICT', details: { status: 'accepted' } });
  });

  it('a scheduled gift stays scheduled, its time unchanged, nothing sent', async () => {
    const { sender, card } = await heldCard(t);
    const at = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString();
    const gift = await sentGift(sender, card.id, { recipient: email(), deliverAt: at });
    const to = email();
    const res = await sender.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: to, recipientName: 'Chi' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'scheduled',
      deliverAt: at,
      recipient: to,
      recipientName: 'Chi',
    });
    expect(await mailsTo(t, to)).toEqual([]);
  });

  it('tells a recipient account the gift was withdrawn when it is re-addressed to someone else', async () => {
    const { sender, card } = await heldCard(t);
    const first = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(first) });
    const res = await sender.request({
      method: 'PATCH',
      url: `/api/v1/gifts/${gift.id}`,
      payload: { recipient: email() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await notificationsOf(t, first.account.id, 'gift_cancelled')).toHaveLength(1);
    expect((await actOnGift(t, first, gift.id, 'accept')).statusCode).toBe(404);
  });
});

describe('the link’s landing page (preview)', () => {
  it('shows the gift to whoever holds the token; a wrong or missing token is the same 404 as an unknown id', async () => {
    const { seller, sender, card } = await heldCard(t);
    const to = email();
    const gift = await sentGift(sender, card.id, { recipient: to, message: 'For you' });
    const token = await tokenFor(t, to, gift.id);
    const res = await preview(gift.id, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      id: gift.id,
      direction: 'received',
      status: 'pending',
      message: 'For you',
      senderName: sender.input.name,
      purchasedCardId: null,
      card: { businessName: seller.input.name, balance: { amount: 1_000_000 } },
    });
    const unknown = await preview(randomUUID(), token);
    for (const bad of [await preview(gift.id, 'A'.repeat(43)), await preview(gift.id), unknown]) {
      expect(bad.statusCode).toBe(404);
      expect(bad.json()).toEqual(unknown.json());
    }
    expect((await preview(gift.id, 'not a token!')).statusCode).toBe(400);
  });

  it('is limited per IP (30 a minute), counted before the token is checked', async () => {
    const ip = freshIp();
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 35 }, () => preview(id, 'x', ip)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 404)).toHaveLength(30);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
  });
});

describe('the lists', () => {
  it('sent and received, newest first, by direction, a page at a time', async () => {
    const friend = await user();
    const sent: Gift[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { sender, card } = await heldCard(t);
      sent.push(await sentGift(sender, card.id, { recipient: usernameOf(friend) }));
    }
    const { sender: me, card: myCard } = await heldCard(t);
    const mine = await sentGift(me, myCard.id, { recipient: friend.input.email });
    sent.push(mine);

    const page1 = await friend.request({ method: 'GET', url: '/api/v1/gifts?direction=received&limit=3' });
    expect(page1.statusCode, page1.body).toBe(200);
    const first = page1.json() as GiftPage;
    expect(first.items.map((g) => g.id)).toEqual([sent[3]!.id, sent[2]!.id, sent[1]!.id]);
    expect(first.nextCursor).not.toBeNull();
    const page2 = (
      await friend.request({
        method: 'GET',
        url: `/api/v1/gifts?direction=received&limit=3&cursor=${first.nextCursor}`,
      })
    ).json() as GiftPage;
    expect(page2.items.map((g) => g.id)).toEqual([sent[0]!.id]);
    expect(page2.nextCursor).toBeNull();

    expect(
      ((await friend.request({ method: 'GET', url: '/api/v1/gifts?direction=sent' })).json() as GiftPage)
        .items,
    ).toEqual([]);
    const both = (await me.request({ method: 'GET', url: '/api/v1/gifts' })).json() as GiftPage;
    expect(both.items.map((g) => [g.id, g.direction])).toEqual([[mine.id, 'sent']]);

    const ofCard = (
      await me.request({
        method: 'GET',
        url: `/api/v1/gifts?direction=sent&purchasedCardId=${myCard.id}`,
      })
    ).json() as GiftPage;
    expect(ofCard.items.map((g) => g.id)).toEqual([mine.id]);
    const notMine = (
      await friend.request({
        method: 'GET',
        url: `/api/v1/gifts?purchasedCardId=${myCard.id}&direction=sent`,
      })
    ).json() as GiftPage;
    expect(notMine.items).toEqual([]);

    const bad = await friend.request({ method: 'GET', url: '/api/v1/gifts?cursor=garbage' });
    expect(bad.statusCode).toBe(400);
    const shop = await business();
    expect((await shop.request({ method: 'GET', url: '/api/v1/gifts' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/gifts' })).statusCode).toBe(401);
  });
});

describe('a card in a gift cannot be used for anything else until the gift ends', () => {
  it('refuses redemption, freeze, block and refund, each saying why', async () => {
    const { seller, sender, card } = await heldCard(t);
    await sentGift(sender, card.id, { recipient: email() });

    const spend = await redeem(seller, card.code, 100);
    expect(spend.statusCode).toBe(409);
    expect(spend.json()).toMatchObject({
      code: 'CARD_NOT_REDEEMABLE',
      message: 'This card is being sent as a gift: it cannot be used until the gift is accepted or returned.',
      details: { status: 'gift_pending' },
    });
    const freeze = await sender.request({ method: 'POST', url: `/api/v1/purchased-cards/${card.id}/freeze` });
    expect(freeze.statusCode).toBe(409);
    expect(freeze.json().message).toContain('being sent as a gift');
    const block = await seller.request({
      method: 'POST',
      url: `/api/v1/sold-cards/${card.id}/block`,
      payload: { reason: 'Reported lost' },
    });
    expect(block.statusCode, block.body).toBe(409);
    expect(block.json().message).toContain('being sent as a gift');
    const refund = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/refund` });
    expect(refund.statusCode, refund.body).toBe(409);
    expect(refund.json()).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
    expect(refund.json().message).toContain('being sent as a gift');

    const held: PurchasedCardDetail = await cardOf(sender, card.id);
    expect(held.status).toBe('gift_pending');
    expect(held.activities.map((a) => a.kind)).toEqual(['issue', 'gift_sent']);
  });

  it('once accepted, the business cannot refund it to the buyer (it would take the recipient’s card)', async () => {
    const { seller, sender, card } = await heldCard(t);
    const friend = await user();
    const gift = await sentGift(sender, card.id, { recipient: usernameOf(friend) });
    expect((await actOnGift(t, friend, gift.id, 'accept')).statusCode).toBe(200);
    const refund = await seller.request({ method: 'POST', url: `/api/v1/sold-cards/${card.id}/refund` });
    expect(refund.statusCode, refund.body).toBe(409);
    expect(refund.json()).toMatchObject({
      code: 'REFUND_NOT_ALLOWED',
      message: 'This card was given as a gift and now belongs to someone else, so it cannot be refunded.',
    });
    const kept = await cardOf(friend, card.id);
    expect(kept.status).toBe('active');
    expect(kept.activities.map((a) => a.kind)).toEqual(['issue', 'gift_sent', 'transfer']);
  });
});

describe('the API description', () => {
  it('lists every gift route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/v1/purchased-cards/{id}/gifts']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/gifts']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/gifts/{id}']!).sort()).toEqual(['get', 'patch']);
    for (const action of ['accept', 'decline', 'cancel', 'preview']) {
      expect(Object.keys(doc.paths[`/api/v1/gifts/{id}/${action}`]!), action).toEqual(['post']);
    }
  });
});
