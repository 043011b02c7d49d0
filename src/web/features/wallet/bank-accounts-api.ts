import type {
  CreateBankAccountInput,
  ResolveBankAccountInput,
  ResolvedBankAccount,
} from '../../../shared/wallet/bank-accounts';
import type { BankAccount } from '../../../shared/wallet/schemas';
import { api } from '../../lib/api';

export type { BankAccount, ResolvedBankAccount };

/** Shared with the withdraw dialog, which lists the same accounts under the same key (an array). */
export const bankAccountKeys = { all: ['bank-accounts'] as const };

/** The business's live accounts, the default first. */
export function listBankAccounts(signal?: AbortSignal): Promise<BankAccount[]> {
  return api<{ items: BankAccount[] }>('/api/v1/bank-accounts', { signal }).then((r) => r.items);
}

export function resolveBankAccount(body: ResolveBankAccountInput): Promise<ResolvedBankAccount> {
  return api<ResolvedBankAccount>('/api/v1/bank-accounts/resolve', { method: 'POST', body });
}

export function addBankAccount(body: CreateBankAccountInput): Promise<BankAccount> {
  return api<BankAccount>('/api/v1/bank-accounts', { method: 'POST', body });
}

export function makeDefaultBankAccount(id: string, pin: string): Promise<BankAccount> {
  return api<BankAccount>(`/api/v1/bank-accounts/${encodeURIComponent(id)}/default`, {
    method: 'PATCH',
    body: { pin },
  });
}

export function removeBankAccount(id: string): Promise<void> {
  return api<void>(`/api/v1/bank-accounts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
