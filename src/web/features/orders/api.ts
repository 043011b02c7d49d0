import type { GiftRequest } from '../../../shared/cards/gifts';
import type { Order } from '../../../shared/orders/schemas';
import { api } from '../../lib/api';

/** A user's orders: starting one (with its Idempotency-Key) and reading how it went. */

export const orderKeys = {
  one: (orderId: string) => ['order', orderId] as const,
};

export function createOrder(giftCardId: string, idempotencyKey: string, gift?: GiftRequest) {
  return api<Order>('/api/v1/orders', {
    method: 'POST',
    body: gift ? { giftCardId, gift } : { giftCardId },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function getOrder(orderId: string, signal?: AbortSignal) {
  return api<Order>(`/api/v1/orders/${encodeURIComponent(orderId)}`, { signal });
}

export type { Order };
