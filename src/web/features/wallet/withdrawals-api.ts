import type { BankAccount, Withdrawal, WithdrawalPage } from '../../../shared/wallet/schemas';
import { api } from '../../lib/api';

export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  bankAccounts: ['bank-accounts'] as const,
};

export function listWithdrawals(cursor?: string, limit = 10) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor) params.set('cursor', cursor);
  return api<WithdrawalPage>(`/api/v1/withdrawals?${params}`);
}

export function requestWithdrawal(
  body: { amount: number; pin: string; bankAccountId?: string },
  idempotencyKey: string,
) {
  return api<Withdrawal>('/api/v1/withdrawals', {
    method: 'POST',
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function listBankAccounts() {
  return api<BankAccount[] | { items: BankAccount[] }>('/api/v1/bank-accounts').then((r) =>
    Array.isArray(r) ? r : r.items,
  );
}
