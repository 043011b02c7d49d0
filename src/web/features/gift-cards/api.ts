import type { Account } from '../../../shared/accounts/schemas';
import type { GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import { api } from '../../lib/api';

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

export function createGiftCard(body: { amount: number; colour: string }) {
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

export function getPublicConfig() {
  return api<{ currency: string; supportEmail: string }>('/api/v1/config');
}
