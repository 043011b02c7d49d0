import type { GiftRequest } from '../../../shared/cards/gifts';
import type { Order as OrderBody } from '../../../shared/orders/schemas';
import { api } from '../../lib/api';

/** A user's orders: starting one (with its Idempotency-Key) and reading how it went. */

export const orderKeys = {
  one: (orderId: string) => ['order', orderId] as const,
};

/** An order; one bought as a gift names its gift (sent once the payment is confirmed). */
export type Order = OrderBody & { giftId?: string | null };

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
