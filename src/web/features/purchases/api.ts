import type { GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import type { Order } from '../../../shared/orders/schemas';
import type { PurchasedCard, PurchasedCardDetail, PurchasedCardPage } from '../../../shared/cards/schemas';
import { api } from '../../lib/api';

/** The user side of buying: the public catalogue, orders, and the cards a user owns. */

export const PAGE_SIZE = 24;

export const purchaseKeys = {
  order: (orderId: string) => ['order', orderId] as const,
  /** Everything about the user's own cards; invalidate this after a purchase. */
  mine: ['purchased-cards'] as const,
  mineList: ['purchased-cards', 'list'] as const,
  mineOne: (cardId: string) => ['purchased-cards', 'detail', cardId] as const,
};

export function listCatalogue(q: string, cursor?: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  if (q) params.set('q', q);
  return api<GiftCardPage>(`/api/v1/gift-cards?${params}`, { signal });
}

export function getGiftCard(id: string, signal?: AbortSignal) {
  return api<GiftCard>(`/api/v1/gift-cards/${encodeURIComponent(id)}`, { signal });
}

export function createOrder(giftCardId: string, idempotencyKey: string) {
  return api<Order>('/api/v1/orders', {
    method: 'POST',
    body: { giftCardId },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function getOrder(orderId: string, signal?: AbortSignal) {
  return api<Order>(`/api/v1/orders/${encodeURIComponent(orderId)}`, { signal });
}

export function listPurchasedCards(cursor?: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  return api<PurchasedCardPage>(`/api/v1/purchased-cards?${params}`, { signal });
}

export function getPurchasedCard(cardId: string, signal?: AbortSignal) {
  return api<PurchasedCardDetail>(`/api/v1/purchased-cards/${encodeURIComponent(cardId)}`, { signal });
}

export function revealCode(cardId: string) {
  return api<{ code: string }>(`/api/v1/purchased-cards/${encodeURIComponent(cardId)}/code`, {
    method: 'POST',
  });
}

export type { GiftCard, Order, PurchasedCard, PurchasedCardDetail };
