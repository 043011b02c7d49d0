import type { Account } from '../../../shared/accounts/schemas';
import type { GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import { api, fetchEarly } from '../../lib/api';

const PAGE_SIZE = 24;

export const cardKeys = {
  own: (businessId: string) => ['own-cards', businessId] as const,
  topOwn: (businessId: string) => ['own-cards', businessId, 'best-selling'] as const,
  catalogue: (q: string) => ['Allgiftcards', q] as const,
  one: (id: string) => ['post', id] as const,
};

export function listOwnCards(
  businessId: string,
  cursor?: string,
  sort: 'newest' | 'best-selling' = 'newest',
  limit = 24,
) {
  const params = new URLSearchParams({ limit: String(limit), sort });
  if (cursor) params.set('cursor', cursor);
  return api<GiftCardPage>(`/api/v1/businesses/${businessId}/gift-cards?${params}`);
}

export function createGiftCard(body: { amount: number; colour: string; validityMonths: number | null }) {
  return api<GiftCard>('/api/v1/gift-cards', { method: 'POST', body });
}

export function setOnSale(id: string, onSale: boolean) {
  return api<GiftCard>(`/api/v1/gift-cards/${id}`, { method: 'PATCH', body: { onSale } });
}

export function uploadLogo(businessId: string, file: File) {
  const form = new FormData();
  form.append('logo', file);
  return api<Account>(`/api/v1/businesses/${businessId}/logo`, { method: 'PUT', body: form });
}

function cataloguePath(q: string, cursor?: string) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  if (q) params.set('q', q);
  return `/api/v1/gift-cards?${params}`;
}

/** The public catalogue a user browses: every business's cards on sale, a page at a time. */
export function listCatalogue(q: string, cursor?: string, signal?: AbortSignal) {
  return api<GiftCardPage>(cataloguePath(q, cursor), { signal });
}

/** Opening the user's home by its address: the catalogue's first page is asked for at start-up. */
export function fetchCatalogueEarly(q: string) {
  fetchEarly(cataloguePath(q));
}

export function getGiftCard(id: string, signal?: AbortSignal) {
  return api<GiftCard>(`/api/v1/gift-cards/${encodeURIComponent(id)}`, { signal });
}
