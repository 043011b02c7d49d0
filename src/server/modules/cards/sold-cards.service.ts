import { REFUND_WINDOW_DAYS, type SoldCard, type SoldCardPage } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { notify } from '../notifications/notifications.service';
import { effectiveStatus, getSoldCard, money, soldCardView, type CardsDeps } from './cards.service';
import {
  findActivityByIdempotencyKey,
  hasBeenRedeemed,
  insertActivity,
  lastFreezeKind,
  listSoldCards,
  lockCard,
  updateCard,
  writeStateChange,
} from './cards.repository';

/** The cards a business has sold, newest first; `last4` narrows to codes ending in those characters. */
export async function listMySoldCards(
  deps: CardsDeps,
  businessId: string,
  query: { limit: number; cursor?: string; q?: string },
): Promise<SoldCardPage> {
  const last4 = query.q?.replace(/[\s-]/g, '').toUpperCase();
  const rows = await listSoldCards(deps.db, businessId, {
    limit: query.limit + 1,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    last4: last4 || undefined,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: await Promise.all(page.map((row) => soldCardView(deps.db, row))),
    nextCursor:
      rows.length > query.limit
        ? encodeCursor({ cursorTime: page.at(-1)!.cursorTime, id: page.at(-1)!.card.id })
        : null,
  };
}

export function getMySoldCard(deps: CardsDeps, businessId: string, id: string): Promise<SoldCard> {
  return getSoldCard(deps.db, businessId, id);
}

/**
 * Blocks a sold card its holder reported lost or stolen (or unblocks a found one): an activity of amount 0
 * with the reason, under the card's lock. A blocked card refuses redemption and says why.
 */
export async function setBlocked(
  deps: CardsDeps,
  businessId: string,
  id: string,
  blocked: boolean,
  reason?: string,
): Promise<SoldCard> {
  await deps.db.transaction(async (tx) => {
    const card = await lockCard(tx, id);
    if (!card || card.businessId !== businessId) throw notFound('That gift card');
    const status = effectiveStatus(card);
    if (blocked && status === 'gift_pending') {
      // Nobody can spend it while the gift waits, and an accepted gift gets a new code: nothing to stop.
      throw new AppError(
        'CARD_STATE_CONFLICT',
        'This card is being sent as a gift: it cannot be spent until the gift ends, and it gets a new code if the gift is accepted. Block it after that if you still need to.',
        { details: { status } },
      );
    }
    if (blocked && status !== 'active' && status !== 'frozen') {
      throw new AppError(
        'CARD_STATE_CONFLICT',
        `Only a card that can still be spent can be blocked (this one is ${status}).`,
        {
          details: { status },
        },
      );
    }
    if (!blocked && status !== 'blocked') {
      throw new AppError('CARD_STATE_CONFLICT', 'This card is not blocked.', { details: { status } });
    }
    // Unblocking gives back what the holder had chosen: a card they froze before the block stays frozen.
    const heldFrozen = !blocked && (await lastFreezeKind(tx, id)) === 'freeze';
    await writeStateChange(
      tx,
      card,
      {
        kind: blocked ? 'block' : 'unblock',
        actorId: businessId,
        reference: blocked ? reason || null : null,
      },
      {
        status: blocked ? 'blocked' : card.balance === 0n ? 'redeemed' : heldFrozen ? 'frozen' : 'active',
        blockedReason: blocked ? reason || null : null,
      },
    );
    await notify(tx, [
      {
        accountId: card.ownerId,
        kind: 'card_blocked',
        title: blocked ? 'Your gift card was blocked' : 'Your gift card was unblocked',
        body: blocked
          ? `The business blocked your ${formatMoney(money(card.balance, card.currency))} card${reason ? ` (${reason})` : ''}. It cannot be spent until it is unblocked.`
          : 'The business unblocked your card: it can be spent again.',
        link: `/user-dashboard/mycards/${id}`,
      },
    ]);
  });
  return getSoldCard(deps.db, businessId, id);
}

export const idempotencyConflict = () =>
  new AppError(
    'IDEMPOTENCY_CONFLICT',
    'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  );

/** The same Idempotency-Key written by two requests at once (another card's refund, a redemption). */
export function isIdempotencyKeyTaken(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
  return cause?.code === '23505' && cause.constraint === 'card_activities_idempotency_unique';
}

const REFUND_WINDOW_MS = REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/**
 * The card's half of a refund, in the caller's transaction (orders runs the rest: ledger, provider, order):
 * under the card's lock, checks that the card was never used and is within 30 days of its sale, then
 * writes the refund activity (the whole balance out) and voids the card, so its code dies. A retry with
 * the same Idempotency-Key after the refund answers `replayed`.
 */
export async function voidCardForRefund(
  tx: DbOrTx,
  businessId: string,
  id: string,
  idempotencyKey?: string,
): Promise<
  { replayed: true } | { replayed: false; orderId: string; ownerId: string; amount: bigint; currency: string }
> {
  const card = await lockCard(tx, id);
  if (!card || card.businessId !== businessId) throw notFound('That gift card');
  if (idempotencyKey) {
    // The key may already name this refund (a retry), or another request of this business: a redemption,
    // or another card's refund, which must be refused here rather than by the unique index (a 500).
    const earlier = await findActivityByIdempotencyKey(tx, businessId, idempotencyKey);
    if (earlier?.purchasedCardId === id && earlier.kind === 'refund') return { replayed: true };
    if (earlier) throw idempotencyConflict();
  }
  if (card.status === 'void') {
    throw new AppError('REFUND_NOT_ALLOWED', 'This card was already refunded.');
  }
  if (card.status === 'gift_pending') {
    throw new AppError(
      'REFUND_NOT_ALLOWED',
      'This card is being sent as a gift: it can be refunded only after the gift is accepted or comes back.',
      { details: { status: card.status } },
    );
  }
  if (await hasBeenRedeemed(tx, id)) {
    throw new AppError('REFUND_NOT_ALLOWED', 'This card has been used, so it can no longer be refunded.');
  }
  if (card.createdAt.getTime() + REFUND_WINDOW_MS <= Date.now()) {
    throw new AppError(
      'REFUND_NOT_ALLOWED',
      `A card can be refunded only within ${REFUND_WINDOW_DAYS} days of its sale.`,
    );
  }
  await insertActivity(tx, {
    purchasedCardId: id,
    kind: 'refund',
    amount: -card.balance,
    balanceAfter: 0n,
    actorId: businessId,
    idempotencyKey: idempotencyKey ?? null,
    requestHash: idempotencyKey ? `refund:${id}` : null,
  });
  await updateCard(tx, id, { balance: 0n, status: 'void' });
  return {
    replayed: false,
    orderId: card.orderId,
    ownerId: card.ownerId,
    amount: card.initialValue,
    currency: card.currency,
  };
}
