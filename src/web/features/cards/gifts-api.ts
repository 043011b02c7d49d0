import type { Gift, GiftAddress, GiftPage, GiftRequest } from '../../../shared/cards/gifts';
import { api } from '../../lib/api';

/** Gifts: sending a card, the lists of gifts sent and received, and what a recipient or sender does next. */

const PAGE_SIZE = 20;

export type GiftDirection = 'sent' | 'received';

export const giftKeys = {
  /** Everything about gifts; invalidate after any change to one. */
  all: ['gifts'] as const,
  list: (direction: GiftDirection) => ['gifts', 'list', direction] as const,
  one: (giftId: string) => ['gifts', 'detail', giftId] as const,
  /** The gift as its link shows it to the recipient (token from the link). */
  preview: (giftId: string) => ['gifts', 'preview', giftId] as const,
  /** The gift waiting on one of the sender's cards (the card is gift_pending). */
  pendingOnCard: (cardId: string) => ['gifts', 'on-card', cardId] as const,
};

const path = (giftId: string) => `/api/v1/gifts/${encodeURIComponent(giftId)}`;

export function sendGift(cardId: string, body: GiftRequest) {
  return api<Gift>(`/api/v1/purchased-cards/${encodeURIComponent(cardId)}/gifts`, { method: 'POST', body });
}

export function listGifts(
  direction: GiftDirection,
  cursor?: string,
  signal?: AbortSignal,
  limit = PAGE_SIZE,
) {
  const params = new URLSearchParams({ direction, limit: String(limit) });
  if (cursor) params.set('cursor', cursor);
  return api<GiftPage>(`/api/v1/gifts?${params}`, { signal });
}

export function getGift(giftId: string, signal?: AbortSignal) {
  return api<Gift>(path(giftId), { signal });
}

/** The gift as its recipient sees it, with the link's token and no session. */
export function previewGift(giftId: string, token: string, signal?: AbortSignal) {
  return api<Gift>(`${path(giftId)}/preview`, { method: 'POST', body: { token }, signal });
}

export function acceptGift(giftId: string, token?: string) {
  return api<Gift>(`${path(giftId)}/accept`, { method: 'POST', body: token ? { token } : {} });
}

export function declineGift(giftId: string, token?: string) {
  return api<Gift>(`${path(giftId)}/decline`, { method: 'POST', body: token ? { token } : {} });
}

export function cancelGift(giftId: string) {
  return api<Gift>(`${path(giftId)}/cancel`, { method: 'POST', body: {} });
}

export function correctGiftAddress(giftId: string, body: GiftAddress) {
  return api<Gift>(path(giftId), { method: 'PATCH', body });
}

/**
 * The gift (scheduled or waiting) that holds one of the sender's cards: the newest sent gifts, page by
 * page, until it is found. A card is in at most one open gift.
 */
export async function findOpenGiftForCard(cardId: string, signal?: AbortSignal): Promise<Gift | null> {
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages += 1) {
    const page = await listGifts('sent', cursor, signal, 50);
    const found = page.items.find(
      (gift) => gift.purchasedCardId === cardId && (gift.status === 'pending' || gift.status === 'scheduled'),
    );
    if (found) return found;
    if (!page.nextCursor) return null;
    cursor = page.nextCursor;
  }
  return null;
}

export type { Gift };
