import type {
  AccountDeletion,
  DeleteAccount,
  EmailChange,
  UpdateProfile,
} from '../../../shared/accounts/profile';
import type { Account } from '../../../shared/accounts/schemas';
import { api } from '../../lib/api';

export const profileKeys = {
  deletion: ['account', 'deletion'] as const,
};

export function updateProfile(body: UpdateProfile): Promise<Account> {
  return api<Account>('/api/v1/account', { method: 'PATCH', body });
}

export function getAccount(): Promise<Account> {
  return api<Account>('/api/v1/account');
}

/** A wrong password is a 401 here, not a lost session. */
export function requestEmailChange(body: EmailChange): Promise<{ message: string }> {
  return api('/api/v1/account/email-change', { method: 'POST', body, expectUnauthorized: true });
}

export function confirmEmailChange(token: string): Promise<{ email: string }> {
  return api('/api/v1/account/email-change/confirm', { method: 'POST', body: { token } });
}

export function getDeletionStatus(): Promise<AccountDeletion> {
  return api<AccountDeletion>('/api/v1/account/deletion');
}

export function deleteAccount(body: DeleteAccount): Promise<void> {
  return api<void>('/api/v1/account', { method: 'DELETE', body, expectUnauthorized: true });
}
