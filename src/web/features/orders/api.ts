import type { GiftRequest } from '../../../shared/cards/gifts';
import type {
  Order,
  OrderListStatus,
  OrderPage,
  OrderReceipt,
  OrderSummary,
} from '../../../shared/orders/schemas';
import { api } from '../../lib/api';

/** A user's orders: starting one (with its Idempotency-Key) and reading how it went. */

export const orderKeys = {
  one: (orderId: string) => ['order', orderId] as const,
  /** The buyer's order list (every filter): invalidate this after a purchase. */
  lists: ['orders'] as const,
  list: (status: OrderListStatus | 'all') => ['orders', 'list', status] as const,
  receipt: (orderId: string) => ['orders', 'receipt', orderId] as const,
};

const ORDERS_PAGE_SIZE = 20;

/** The buyer's orders, newest first, a page at a time, optionally in one state. */
export function listOrders(status: OrderListStatus | undefined, cursor?: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(ORDERS_PAGE_SIZE) });
  if (status) params.set('status', status);
  if (cursor) params.set('cursor', cursor);
  return api<OrderPage>(`/api/v1/orders?${params}`, { signal });
}

export function getReceipt(orderId: string, signal?: AbortSignal) {
  return api<OrderReceipt>(`/api/v1/orders/${encodeURIComponent(orderId)}/receipt`, { signal });
}

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

export type { Order, OrderListStatus, OrderReceipt, OrderSummary };
