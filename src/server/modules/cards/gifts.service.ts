import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  GIFT_LINK_DAYS,
  GIFT_SCHEDULE_MAX_DAYS,
  giftMessages,
  type Gift,
  type GiftAddress,
  type GiftPage,
  type GiftRequest,
  type GiftStatus,
} from '../../../shared/cards/gifts';
import type { Role } from '../../../shared/accounts/schemas';
import { formatMoney } from '../../../shared/money';
import { GIFT_RECEIVED_TITLE } from '../../../shared/notifications/schemas';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { constantTimeEqual, randomToken } from '../../lib/crypto';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { runPeriodically } from '../../lib/periodic';
import { consume } from '../../lib/rate-limiter';
import { findAccount, findAccountByEmailAddress, findUserWithUsername } from '../accounts/accounts.service';
import { logoUrl } from '../catalogue/catalogue.service';
import { notify, queueMail, type NewNotification } from '../notifications/notifications.service';
import {
  findPurchasedCard,
  insertActivity,
  lockCard,
  transferCard,
  writeStateChange,
} from './cards.repository';
import { effectiveStatus, money, stateWords, type CardsDeps, type CodeVault } from './cards.service';
import {
  findGiftView,
  insertGift,
  listGiftViews,
  lockGift,
  lockNextDueGift,
  updateGift,
  type GiftRow,
  type GiftView,
} from './gifts.repository';

/**
 * A card becomes a gift (issue 11). Sending puts the card on hold (gift_pending, with a gift_sent activity)
 * and writes the gift, scheduled or pending; the recipient accepts (the card changes owner with a new code
 * and a transfer activity, in one transaction under the gift's lock, then the card's) or declines; the
 * sender may cancel or correct the address while it waits; a job sends scheduled gifts and returns those
 * nobody accepted. Whoever may not see a gift gets the same 404 as for an id that does not exist.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** A delivery time this little in the past (a slow form, a skewed clock) means "now", not an error. */
const DELIVER_AT_GRACE_MS = 5 * 60 * 1000;
/** The gift link's landing page, read without a session: its look-ups are counted per IP. */
export const GIFT_PREVIEWS_PER_MINUTE_PER_IP = 30;

/** Who is asking: a signed-in account, or nobody (a recipient with only the link). */
export interface GiftCaller {
  id: string;
  role: Role;
  email: string;
}

export type GiftDeps = CardsDeps;

const giftNotFound = () => notFound('That gift');

export function hashGiftToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function tokenMatches(gift: Pick<GiftRow, 'tokenHash'>, token: string | undefined): boolean {
  return Boolean(token && gift.tokenHash && constantTimeEqual(hashGiftToken(token), gift.tokenHash));
}

const recipientInvalid = (message: string) =>
  new AppError('GIFT_RECIPIENT_INVALID', message, { details: { fieldErrors: { recipient: [message] } } });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A gift request as it is kept (an order bought as a gift stores one): the optional fields may be absent. */
export interface GiftRequestFields {
  recipient: string;
  recipientName?: string;
  message?: string;
  deliverAt?: string;
}

/** Whom a gift goes to: an account (named by username or its e-mail), or an e-mail address alone. */
export interface GiftRecipient {
  accountId: string | null;
  /** Lower-cased; the account's own address when named by username. */
  email: string;
  /** What the sender typed, shown back to them. */
  label: string;
}

/**
 * Resolves what the sender typed: a username (with or without @) must be a user's; an e-mail address is
 * that account's when there is one (a business cannot receive a gift), else an address without an
 * account. Nobody sends a gift to themselves. Refused with GIFT_RECIPIENT_INVALID (422) and the reason.
 */
export async function resolveGiftRecipient(
  db: DbOrTx,
  senderId: string,
  typed: string,
): Promise<GiftRecipient> {
  const label = typed.trim();
  if (EMAIL.test(label)) {
    const email = label.toLowerCase();
    const account = await findAccountByEmailAddress(db, email);
    if (account?.role === 'business') {
      throw recipientInvalid('That address belongs to a business; gift cards can be sent to people only.');
    }
    if (account?.id === senderId) throw recipientInvalid('You cannot send a gift card to yourself.');
    return { accountId: account?.id ?? null, email: account ? account.email.toLowerCase() : email, label };
  }
  const user = await findUserWithUsername(db, label.replace(/^@/, ''));
  if (!user) throw recipientInvalid('No Giftmart user has that username.');
  if (user.id === senderId) throw recipientInvalid('You cannot send a gift card to yourself.');
  return { accountId: user.id, email: user.email.toLowerCase(), label };
}

function deliverAtInvalid(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { details: { fieldErrors: { deliverAt: [message] } } });
}

/**
 * When to send it: null for now (omitted, or only moments ago), else a time at most a year ahead. A time
 * clearly in the past is refused (400) unless `lenient` (a bought gift whose payment came after its time:
 * it goes at once).
 */
export function parseDeliverAt(
  deliverAt: string | undefined,
  lenient = false,
  now = Date.now(),
): Date | null {
  if (!deliverAt) return null;
  const at = Date.parse(deliverAt);
  if (!Number.isFinite(at)) throw deliverAtInvalid(giftMessages.deliverAtInvalid);
  if (at > now + GIFT_SCHEDULE_MAX_DAYS * DAY_MS) throw deliverAtInvalid(giftMessages.deliverAtTooFar);
  if (at <= now) {
    if (!lenient && at < now - DELIVER_AT_GRACE_MS) throw deliverAtInvalid(giftMessages.deliverAtPast);
    return null;
  }
  return new Date(at);
}

/** Checks a gift request before any money moves (buying a card as a gift): recipient and time. */
export async function checkGiftRequest(
  db: DbOrTx,
  senderId: string,
  request: GiftRequestFields,
): Promise<void> {
  parseDeliverAt(request.deliverAt);
  await resolveGiftRecipient(db, senderId, request.recipient);
}

const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** The words every message about a gift needs: who sent it, what card, how much. */
async function giftContext(tx: DbOrTx, gift: GiftRow) {
  const [card, sender] = await Promise.all([
    findPurchasedCard(tx, gift.purchasedCardId),
    findAccount(tx, gift.senderId),
  ]);
  return {
    senderName: sender?.name ?? 'Someone',
    businessName: card?.businessName ?? '',
    value: card ? formatMoney(money(card.card.balance, card.card.currency)) : '',
  };
}

/**
 * Tells the recipient a gift is waiting: an account gets the notification (and its mail), an address
 * without one only the mail. The mail's link carries the token in its fragment, which browsers never send,
 * so it stays out of every server's logs.
 */
async function announceGift(tx: DbOrTx, gift: GiftRow, token: string, expiresAt: Date): Promise<void> {
  const { senderName, businessName, value } = await giftContext(tx, gift);
  const body = `${senderName} sent you a ${value} ${businessName} gift card.`;
  const paragraphs = [
    ...(gift.recipientName ? [`Hi ${gift.recipientName},`] : []),
    body,
    ...(gift.message ? [`${senderName} wrote: “${gift.message}”`] : []),
    `Accept it by ${longDate.format(expiresAt)}; after that it goes back to ${senderName}.`,
    ...(gift.recipientAccountId
      ? []
      : ['Accepting it takes a free Giftmart account: the link lets you sign up or log in, then accept.']),
    'The link works once and only for you: do not forward this e-mail.',
  ];
  const mail = {
    subject: `${senderName} sent you a ${businessName} gift card`,
    heading: `${senderName} sent you a gift card`,
    paragraphs,
    action: { label: 'See your gift', path: `/gifts/${gift.id}#token=${token}` },
  };
  if (gift.recipientAccountId) {
    await notify(tx, [
      {
        accountId: gift.recipientAccountId,
        kind: 'gift_received',
        title: GIFT_RECEIVED_TITLE,
        body,
        link: `/gifts/${gift.id}`,
        mail,
      },
    ]);
  } else {
    await queueMail(tx, [{ ...mail, to: gift.recipientEmail, kind: 'gift_received' }]);
  }
}

/** A new link (the old one dies) and 30 days from now; the gift becomes pending and its recipient is told. */
async function sendNow(tx: DbOrTx, gift: GiftRow): Promise<GiftRow> {
  const token = randomToken();
  const sentAt = new Date();
  const expiresAt = new Date(sentAt.getTime() + GIFT_LINK_DAYS * DAY_MS);
  const values = { status: 'pending' as const, tokenHash: hashGiftToken(token), sentAt, expiresAt };
  await updateGift(tx, gift.id, values);
  const sent = { ...gift, ...values };
  await announceGift(tx, sent, token, expiresAt);
  return sent;
}

function isOpenGiftTaken(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
  return cause?.code === '23505' && cause.constraint === 'gifts_open_card_unique';
}

const alreadyInGift = () =>
  new AppError('CARD_STATE_CONFLICT', stateWords('gift_pending', ''), {
    details: { status: 'gift_pending' },
  });

/**
 * The card's half of sending, in the caller's transaction: under the card's lock, only its owner's card,
 * active and with a balance, goes on hold (gift_pending, a gift_sent activity of amount 0), and the gift
 * is written (scheduled for later, or pending and announced now).
 */
async function sendInTx(
  tx: DbOrTx,
  input: {
    senderId: string;
    purchasedCardId: string;
    recipient: GiftRecipient;
    request: Pick<GiftRequestFields, 'recipientName' | 'message'>;
    deliverAt: Date | null;
    orderId?: string;
  },
): Promise<GiftRow> {
  const card = await lockCard(tx, input.purchasedCardId);
  if (!card || card.ownerId !== input.senderId) throw notFound('That gift card');
  const status = effectiveStatus(card);
  if (status === 'gift_pending') throw alreadyInGift();
  if (status !== 'active' || card.balance <= 0n) {
    throw new AppError(
      'CARD_STATE_CONFLICT',
      stateWords(status, 'Only an active card with a balance can be sent as a gift.'),
      { details: { status } },
    );
  }
  await writeStateChange(
    tx,
    card,
    { kind: 'gift_sent', actorId: input.senderId },
    { status: 'gift_pending' },
  );
  const gift = await insertGift(tx, {
    purchasedCardId: card.id,
    senderId: input.senderId,
    recipientAccountId: input.recipient.accountId,
    recipientEmail: input.recipient.email,
    recipientLabel: input.recipient.label,
    recipientName: input.request.recipientName ?? null,
    message: input.request.message ?? null,
    deliverAt: input.deliverAt,
    status: 'scheduled',
    orderId: input.orderId ?? null,
  });
  return input.deliverAt ? gift : sendNow(tx, gift);
}

/** ★ Sends one of the caller's cards as a gift: scheduled when deliverAt is ahead, else pending now. */
export async function sendGift(
  deps: GiftDeps,
  sender: GiftCaller,
  purchasedCardId: string,
  request: GiftRequest,
): Promise<Gift> {
  const deliverAt = parseDeliverAt(request.deliverAt);
  let gift: GiftRow;
  try {
    gift = await deps.db.transaction(async (tx) => {
      const recipient = await resolveGiftRecipient(tx, sender.id, request.recipient);
      return sendInTx(tx, { senderId: sender.id, purchasedCardId, recipient, request, deliverAt });
    });
  } catch (error) {
    // The card's lock makes this unreachable; the unique index is the backstop, and answers the same.
    if (isOpenGiftTaken(error)) throw alreadyInGift();
    throw error;
  }
  deps.log?.info({ giftId: gift.id, purchasedCardId, status: gift.status }, 'gift sent');
  return viewOf(deps.db, gift.id, sender.id);
}

/**
 * A card bought as a gift, sent from its buyer inside the payment's transaction (a savepoint): when the
 * recipient can no longer receive it (the username is gone, the address became a business's), nothing of
 * the gift is written, the card stays with the buyer and the answer says why.
 */
export async function sendBoughtGift(
  tx: DbOrTx,
  input: { buyerId: string; purchasedCardId: string; orderId: string; request: GiftRequestFields },
): Promise<{ sent: true; giftId: string; status: GiftStatus } | { sent: false; reason: string }> {
  try {
    return await tx.transaction(async (savepoint) => {
      const recipient = await resolveGiftRecipient(savepoint, input.buyerId, input.request.recipient);
      const gift = await sendInTx(savepoint, {
        senderId: input.buyerId,
        purchasedCardId: input.purchasedCardId,
        recipient,
        request: input.request,
        deliverAt: parseDeliverAt(input.request.deliverAt, true),
        orderId: input.orderId,
      });
      return { sent: true as const, giftId: gift.id, status: gift.status };
    });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { sent: false, reason: error.message };
    throw error;
  }
}

/** Puts the card back in the sender's hands (a gift_returned activity) and ends the gift. */
async function endGift(
  tx: DbOrTx,
  gift: GiftRow,
  status: 'declined' | 'cancelled' | 'expired',
  extra: { actorId?: string | null; tokenUsed?: boolean } = {},
): Promise<void> {
  const card = await lockCard(tx, gift.purchasedCardId);
  if (card && card.status === 'gift_pending') {
    await writeStateChange(
      tx,
      card,
      { kind: 'gift_returned', actorId: extra.actorId ?? null },
      { status: 'active' },
    );
  }
  await updateGift(tx, gift.id, {
    status,
    endedAt: sql`now()`,
    ...(extra.tokenUsed ? { tokenUsed: true } : {}),
  });
}

function stateConflict(gift: Pick<GiftRow, 'status'>, status: GiftStatus = gift.status): AppError {
  const words: Record<GiftStatus, string> = {
    scheduled: 'This gift has not been sent yet.',
    pending: 'This gift is still waiting for its recipient.',
    accepted: 'This gift was already accepted.',
    declined: 'This gift was declined; the card went back to the sender.',
    cancelled: 'The sender cancelled this gift.',
    expired: 'This gift expired and went back to the sender.',
  };
  return new AppError('GIFT_STATE_CONFLICT', words[status], { details: { status } });
}

/**
 * How the caller may act as this gift's recipient: as the account it names, or with the link's token.
 * A gift sent to an address with no account is claimed only through the link mailed there: the address
 * of an account is not verified, so someone who signs up with another person's address gets nothing.
 * A scheduled gift has no recipient yet.
 */
function recipientAccess(
  gift: GiftRow,
  caller: GiftCaller | null,
  token?: string,
): 'account' | 'token' | null {
  if (gift.status === 'scheduled') return null;
  if (caller?.role === 'user' && gift.recipientAccountId === caller.id) return 'account';
  return tokenMatches(gift, token) ? 'token' : null;
}

/** ★ The recipient accepts: the card becomes theirs, with a new code, in one transaction. */
export async function acceptGift(
  deps: GiftDeps,
  caller: GiftCaller,
  id: string,
  token?: string,
): Promise<Gift> {
  const gift = await deps.db.transaction(async (tx) => {
    const gift = await lockGift(tx, id);
    if (!gift) throw giftNotFound();
    const access = recipientAccess(gift, caller, token);
    if (caller.id === gift.senderId) {
      throw new AppError('FORBIDDEN', 'You sent this gift: only its recipient can accept it.');
    }
    if (!access) throw giftNotFound();
    if (caller.role !== 'user') {
      throw new AppError(
        'FORBIDDEN',
        'A gift card is accepted into a personal account. Log in as a user (or sign up as one) to accept it.',
      );
    }
    if (gift.status !== 'pending') throw stateConflict(gift);
    if (gift.expiresAt && gift.expiresAt <= new Date()) throw stateConflict(gift, 'expired');
    const card = await lockCard(tx, gift.purchasedCardId);
    if (!card || card.status !== 'gift_pending' || card.ownerId !== gift.senderId) {
      throw stateConflict(gift, 'expired');
    }
    if (effectiveStatus(card) === 'expired') {
      throw new AppError(
        'GIFT_STATE_CONFLICT',
        'This card expired before the gift was accepted, so it goes back to the sender.',
        { details: { status: 'expired' } },
      );
    }
    const code = deps.codes.generate();
    await transferCard(tx, card.id, {
      ownerId: caller.id,
      codeHash: code.hash,
      codeCiphertext: code.ciphertext,
      codeLast4: code.last4,
    });
    await insertActivity(tx, {
      purchasedCardId: card.id,
      kind: 'transfer',
      amount: 0n,
      balanceAfter: card.balance,
      actorId: caller.id,
    });
    await updateGift(tx, gift.id, {
      status: 'accepted',
      recipientAccountId: caller.id,
      endedAt: sql`now()`,
      tokenUsed: access === 'token',
    });
    const { senderName, businessName, value } = await giftContext(tx, gift);
    const accepted = `${gift.recipientLabel} accepted the ${value} ${businessName} gift card you sent.`;
    await notify(tx, [
      {
        accountId: gift.senderId,
        kind: 'gift_accepted',
        title: 'Your gift was accepted',
        body: accepted,
        link: `/gifts/${gift.id}`,
        mail: {
          subject: 'Your gift card was accepted',
          heading: 'Your gift was accepted',
          paragraphs: [accepted, 'The card and its balance are theirs now.'],
          action: { label: 'See the gift', path: `/gifts/${gift.id}` },
        },
      },
      {
        accountId: caller.id,
        kind: 'card_received',
        title: 'A gift card is yours',
        body: `The ${value} ${businessName} gift card from ${senderName} is in My Gift Cards.`,
        link: `/user-dashboard/mycards/${card.id}`,
      },
    ]);
    return gift;
  });
  deps.log?.info({ giftId: id, purchasedCardId: gift.purchasedCardId }, 'gift accepted');
  return viewOf(deps.db, id, caller.id);
}

/**
 * The recipient declines (signed in, or with the link alone): the card goes back to the sender, who is
 * told. A business may decline with the link; nobody accepts into a business.
 */
export async function declineGift(
  deps: GiftDeps,
  caller: GiftCaller | null,
  id: string,
  token?: string,
): Promise<Gift> {
  await deps.db.transaction(async (tx) => {
    const gift = await lockGift(tx, id);
    if (!gift) throw giftNotFound();
    const access = recipientAccess(gift, caller, token);
    if (caller && caller.id === gift.senderId) {
      throw new AppError('FORBIDDEN', 'You sent this gift: cancel it instead.');
    }
    if (!access) throw giftNotFound();
    if (gift.status !== 'pending') throw stateConflict(gift);
    await endGift(tx, gift, 'declined', {
      actorId: caller?.role === 'user' ? caller.id : null,
      tokenUsed: access === 'token',
    });
    const { businessName, value } = await giftContext(tx, gift);
    const declined = `${gift.recipientLabel} declined the ${value} ${businessName} gift card you sent. It is back in My Gift Cards.`;
    await notify(tx, [
      {
        accountId: gift.senderId,
        kind: 'gift_declined',
        title: 'Your gift was declined',
        body: declined,
        link: `/user-dashboard/mycards/${gift.purchasedCardId}`,
        mail: {
          subject: 'Your gift card was declined',
          heading: 'Your gift was declined',
          paragraphs: [declined],
          action: { label: 'See your card', path: `/user-dashboard/mycards/${gift.purchasedCardId}` },
        },
      },
    ]);
  });
  return viewOf(deps.db, id, caller?.id ?? null);
}

/** Tells a recipient account that the gift waiting for it is gone (the sender cancelled or re-addressed it). */
function withdrawnNotice(gift: GiftRow, senderName: string, businessName: string): NewNotification[] {
  if (gift.status !== 'pending' || !gift.recipientAccountId) return [];
  return [
    {
      accountId: gift.recipientAccountId,
      kind: 'gift_cancelled',
      title: 'A gift was withdrawn',
      body: `${senderName} withdrew the ${businessName} gift card they sent you.`,
      link: `/gifts/${gift.id}`,
    },
  ];
}

/** The sender's own open gift, locked; anyone else's does not exist for them. */
async function lockOwnOpenGift(tx: DbOrTx, senderId: string, id: string): Promise<GiftRow> {
  const gift = await lockGift(tx, id);
  if (!gift || gift.senderId !== senderId) throw giftNotFound();
  if (gift.status !== 'scheduled' && gift.status !== 'pending') throw stateConflict(gift);
  return gift;
}

/** The sender takes the gift back before it is accepted: the card is theirs to use again. */
export async function cancelGift(deps: GiftDeps, sender: GiftCaller, id: string): Promise<Gift> {
  await deps.db.transaction(async (tx) => {
    const gift = await lockOwnOpenGift(tx, sender.id, id);
    await endGift(tx, gift, 'cancelled', { actorId: sender.id });
    const { senderName, businessName } = await giftContext(tx, gift);
    await notify(tx, withdrawnNotice(gift, senderName, businessName));
  });
  return viewOf(deps.db, id, sender.id);
}

/**
 * The sender corrects the address: the same rules as sending; a pending gift gets a new link at once (the
 * old token's hash is replaced, so the old link stops working) and 30 days from now; a scheduled one waits.
 */
export async function correctGiftAddress(
  deps: GiftDeps,
  sender: GiftCaller,
  id: string,
  address: GiftAddress,
): Promise<Gift> {
  await deps.db.transaction(async (tx) => {
    const gift = await lockOwnOpenGift(tx, sender.id, id);
    const recipient = await resolveGiftRecipient(tx, sender.id, address.recipient);
    const values = {
      recipientAccountId: recipient.accountId,
      recipientEmail: recipient.email,
      recipientLabel: recipient.label,
      recipientName: address.recipientName ?? gift.recipientName,
    };
    await updateGift(tx, gift.id, values);
    if (gift.status === 'pending') {
      const { senderName, businessName } = await giftContext(tx, gift);
      const sameAccount = gift.recipientAccountId && gift.recipientAccountId === recipient.accountId;
      if (!sameAccount) await notify(tx, withdrawnNotice(gift, senderName, businessName));
      await sendNow(tx, { ...gift, ...values });
    }
  });
  deps.log?.info({ giftId: id }, 'gift re-addressed');
  return viewOf(deps.db, id, sender.id);
}

function toGift(view: GiftView, viewerId: string | null): Gift {
  const { gift } = view;
  // Only whoever holds the card now sees its live balance and id; anyone else sees it as it was handed on.
  const holds = viewerId !== null && view.cardOwnerId === viewerId;
  const balance = holds ? view.balance : BigInt(view.balanceAtEnd ?? view.balance);
  return {
    id: gift.id,
    status: gift.status,
    direction: viewerId === gift.senderId ? 'sent' : 'received',
    senderName: view.senderName,
    recipient: gift.recipientLabel,
    recipientName: gift.recipientName,
    message: gift.message,
    card: {
      businessName: view.businessName,
      brandLogoUrl: logoUrl(view.businessLogoKey),
      colour: view.colour,
      uniqueId: view.uniqueId,
      balance: money(balance, view.currency),
      expiresAt: view.cardExpiresAt?.toISOString() ?? null,
    },
    purchasedCardId: holds ? gift.purchasedCardId : null,
    deliverAt: gift.deliverAt?.toISOString() ?? null,
    sentAt: gift.sentAt?.toISOString() ?? null,
    expiresAt: gift.expiresAt?.toISOString() ?? null,
    endedAt: gift.endedAt?.toISOString() ?? null,
    createdAt: gift.createdAt.toISOString(),
  };
}

async function viewOf(db: DbOrTx, id: string, viewerId: string | null): Promise<Gift> {
  const view = await findGiftView(db, id);
  if (!view) throw giftNotFound();
  return toGift(view, viewerId);
}

/** The caller's gifts, sent and received (or one direction), newest first. */
export async function listGifts(
  deps: GiftDeps,
  viewer: GiftCaller,
  query: {
    direction?: 'sent' | 'received';
    purchasedCardId?: string;
    status?: GiftStatus;
    limit: number;
    cursor?: string;
  },
): Promise<GiftPage> {
  const rows = await listGiftViews(
    deps.db,
    { accountId: viewer.id, email: viewer.email },
    {
      direction: query.direction,
      purchasedCardId: query.purchasedCardId,
      status: query.status,
      limit: query.limit + 1,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
    },
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((row) => toGift(row, viewer.id)),
    nextCursor:
      rows.length > query.limit
        ? encodeCursor({ cursorTime: page.at(-1)!.cursorTime, id: page.at(-1)!.gift.id })
        : null,
  };
}

/** One gift, for its sender or its recipient; for anyone else it does not exist. */
export async function getGift(deps: GiftDeps, viewer: GiftCaller, id: string): Promise<Gift> {
  const view = await findGiftView(deps.db, id);
  if (!view) throw giftNotFound();
  if (view.gift.senderId !== viewer.id && !recipientAccess(view.gift, viewer)) throw giftNotFound();
  return toGift(view, viewer.id);
}

/**
 * The gift as its link shows it to the recipient, without a session (the landing page before sign-up).
 * Each look-up spends one try of the IP's budget first; a wrong token is the same 404 as an unknown id.
 */
export async function previewGift(deps: GiftDeps, id: string, token: string | undefined, ip: string) {
  await consume(
    deps.db,
    [{ key: `gift-preview:ip:${ip}`, max: GIFT_PREVIEWS_PER_MINUTE_PER_IP, windowSeconds: 60 }],
    'Too many gift look-ups.',
  );
  const view = await findGiftView(deps.db, id);
  if (!view || view.gift.status === 'scheduled' || !tokenMatches(view.gift, token)) throw giftNotFound();
  return toGift(view, null);
}

// ---------------------------------------------------------------------------------------------------------
// The gift job: scheduled gifts go out, and gifts nobody accepted in time (or whose card expired) go back.

const MAX_PER_RUN = 1000;

/** Gives the card back to the sender and tells them why (the recipient's window passed, the card expired…). */
async function returnToSender(tx: DbOrTx, gift: GiftRow, why: (label: string) => string): Promise<void> {
  const { businessName, value } = await giftContext(tx, gift);
  await endGift(tx, gift, 'expired');
  const body = `${why(gift.recipientLabel).replace('{card}', `${value} ${businessName} gift card`)} It is back in My Gift Cards.`;
  await notify(tx, [
    {
      accountId: gift.senderId,
      kind: 'gift_returned',
      title: 'Your gift came back',
      body,
      link: `/user-dashboard/mycards/${gift.purchasedCardId}`,
      mail: {
        subject: 'Your gift card came back to you',
        heading: 'Your gift came back',
        paragraphs: [body],
        action: { label: 'See your card', path: `/user-dashboard/mycards/${gift.purchasedCardId}` },
      },
    },
  ]);
}

const cardExpiredWhy = (label: string) => `The {card} you sent to ${label} expired before it was accepted.`;

async function deliverDue(tx: DbOrTx, gift: GiftRow): Promise<void> {
  const card = await lockCard(tx, gift.purchasedCardId);
  if (!card || effectiveStatus(card) === 'expired') return returnToSender(tx, gift, cardExpiredWhy);
  let recipient = gift;
  if (!gift.recipientAccountId) {
    // The address may have become an account since the gift was scheduled.
    const account = await findAccountByEmailAddress(tx, gift.recipientEmail);
    if (account?.role === 'business' || account?.id === gift.senderId) {
      return returnToSender(
        tx,
        gift,
        (label) =>
          `The {card} you scheduled for ${label} could not be sent: that address cannot receive gifts.`,
      );
    }
    if (account) {
      await updateGift(tx, gift.id, { recipientAccountId: account.id });
      recipient = { ...gift, recipientAccountId: account.id };
    }
  }
  await sendNow(tx, recipient);
}

async function endDue(tx: DbOrTx, gift: GiftRow): Promise<void> {
  const card = await lockCard(tx, gift.purchasedCardId);
  const why =
    card && effectiveStatus(card) === 'expired'
      ? cardExpiredWhy
      : (label: string) => `${label} did not accept the {card} within ${GIFT_LINK_DAYS} days.`;
  await returnToSender(tx, gift, why);
}

/**
 * Moves every due gift on, each in its own short transaction that locks it with SKIP LOCKED (and checks
 * its status again as it locks it): two instances, or a restart halfway, never move one gift twice. A
 * gift whose work fails is logged and left for the next run.
 */
async function drain(
  deps: GiftDeps,
  work: 'deliver' | 'end',
  handle: (tx: DbOrTx, gift: GiftRow) => Promise<void>,
): Promise<number> {
  const failed: string[] = [];
  let done = 0;
  while (done + failed.length < MAX_PER_RUN) {
    let current: string | undefined;
    try {
      const moved = await deps.db.transaction(async (tx) => {
        const gift = await lockNextDueGift(tx, work, failed);
        if (!gift) return false;
        current = gift.id;
        await handle(tx, gift);
        return true;
      });
      if (!moved) break;
      done += 1;
    } catch (error) {
      deps.log?.error({ err: error, giftId: current, work }, 'gift job could not move a gift');
      if (!current) throw error;
      failed.push(current);
    }
  }
  return done;
}

export async function runGiftJob(deps: GiftDeps): Promise<{ delivered: number; returned: number }> {
  // Returns first: a scheduled gift whose card expired goes back rather than out.
  const returned = await drain(deps, 'end', endDue);
  const delivered = await drain(deps, 'deliver', deliverDue);
  if (delivered || returned) deps.log?.info({ delivered, returned }, 'gift job');
  return { delivered, returned };
}

/** Runs the gift job now and then every `intervalMs`; answers a function that stops it (and waits). */
export function startGiftWorker(deps: GiftDeps, intervalMs = 30_000): () => Promise<void> {
  return runPeriodically(
    () => runGiftJob(deps),
    intervalMs,
    (error) => deps.log?.error({ err: error }, 'gift job failed'),
  );
}

export type { CodeVault };
