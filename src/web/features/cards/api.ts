import type { MyCardsFilter, MyCardsPage, MyCardsSort } from '../../../shared/cards/my-cards';
import type { BalanceCheck, PurchasedCard, PurchasedCardDetail } from '../../../shared/cards/schemas';
import { api } from '../../lib/api';

/** The cards a user owns: the list, one card with its activity, and revealing its code. */

const PAGE_SIZE = 24;

export const purchasedCardKeys = {
  /** Everything about the user's own cards; invalidate this after a purchase. */
  mine: ['purchased-cards'] as const,
  mineList: ['purchased-cards', 'list'] as const,
  mineFiltered: (status: MyCardsFilter | 'all', sort: MyCardsSort) =>
    ['purchased-cards', 'list', status, sort] as const,
  mineOne: (cardId: string) => ['purchased-cards', 'detail', cardId] as const,
};

/** My Gift Cards, a page at a time: optionally one kind (active, used, expired, sent) and sorted. */
export function listPurchasedCards(
  query: { status?: MyCardsFilter; sort?: MyCardsSort },
  cursor?: string,
  signal?: AbortSignal,
) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (query.status) params.set('status', query.status);
  if (query.sort && query.sort !== 'newest') params.set('sort', query.sort);
  if (cursor) params.set('cursor', cursor);
  return api<MyCardsPage>(`/api/v1/purchased-cards?${params}`, { signal });
}

export function getPurchasedCard(cardId: string, signal?: AbortSignal) {
  return api<PurchasedCardDetail>(`/api/v1/purchased-cards/${encodeURIComponent(cardId)}`, { signal });
}

export function revealCode(cardId: string) {
  return api<{ code: string }>(`/api/v1/purchased-cards/${encodeURIComponent(cardId)}/code`, {
    method: 'POST',
  });
}

/** Freeze (nobody can spend it) or unfreeze one of the user's cards; answers the card as it is now. */
export function setFrozen(cardId: string, frozen: boolean) {
  return api<PurchasedCardDetail>(
    `/api/v1/purchased-cards/${encodeURIComponent(cardId)}/${frozen ? 'freeze' : 'unfreeze'}`,
    { method: 'POST' },
  );
}

/** The public balance check: no login, one answer for every failure, limited per IP. */
export function checkBalance(code: string) {
  return api<BalanceCheck>('/api/v1/balance-checks', { method: 'POST', body: { code } });
}

export type { PurchasedCard, PurchasedCardDetail };
