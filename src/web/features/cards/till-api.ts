import type { Redemption, SoldCard, SoldCardPage } from '../../../shared/cards/schemas';
import { api } from '../../lib/api';

/** The business's side of its cards: the till (look up, redeem, reverse) and the cards it sold. */

const SOLD_PAGE_SIZE = 20;

export const soldCardKeys = {
  all: ['sold-cards'] as const,
  list: (q: string) => ['sold-cards', 'list', q] as const,
  one: (cardId: string) => ['sold-cards', 'detail', cardId] as const,
  redemption: (id: string) => ['redemptions', id] as const,
};

export function lookUpCard(code: string) {
  return api<SoldCard>('/api/v1/card-lookups', { method: 'POST', body: { code } });
}

export interface RedeemInput {
  code: string;
  amount?: number;
  all?: true;
  reference?: string;
}

/** One redemption; the key makes a retry of the same click return the first answer. */
export function redeem(input: RedeemInput, idempotencyKey: string) {
  return api<Redemption>('/api/v1/redemptions', {
    method: 'POST',
    body: input,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function getRedemption(id: string, signal?: AbortSignal) {
  return api<Redemption>(`/api/v1/redemptions/${encodeURIComponent(id)}`, { signal });
}

export function reverseRedemption(id: string, idempotencyKey: string) {
  return api<Redemption>(`/api/v1/redemptions/${encodeURIComponent(id)}/reversal`, {
    method: 'POST',
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function listSoldCards(q: string, cursor?: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(SOLD_PAGE_SIZE) });
  if (q) params.set('q', q);
  if (cursor) params.set('cursor', cursor);
  return api<SoldCardPage>(`/api/v1/sold-cards?${params}`, { signal });
}

export function getSoldCard(cardId: string, signal?: AbortSignal) {
  return api<SoldCard>(`/api/v1/sold-cards/${encodeURIComponent(cardId)}`, { signal });
}

export function blockCard(cardId: string, reason?: string) {
  return api<SoldCard>(`/api/v1/sold-cards/${encodeURIComponent(cardId)}/block`, {
    method: 'POST',
    body: reason ? { reason } : {},
  });
}

export function unblockCard(cardId: string) {
  return api<SoldCard>(`/api/v1/sold-cards/${encodeURIComponent(cardId)}/unblock`, { method: 'POST' });
}

export function refundCard(cardId: string, idempotencyKey: string) {
  return api<SoldCard>(`/api/v1/sold-cards/${encodeURIComponent(cardId)}/refund`, {
    method: 'POST',
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export type { Redemption, SoldCard };
