import type {
  Account,
  ChangePassword,
  Login,
  PasswordResetConfirm,
  PasswordResetRequest,
  SignedInDevices,
  RegisterBusiness,
  RegisterUser,
  Role,
  Session,
} from '../../../shared/accounts/schemas';
import { api } from '../../lib/api';

export function logIn(body: Login & { role: Role }): Promise<Session> {
  return api<Session>('/api/v1/auth/login', { method: 'POST', body, expectUnauthorized: true });
}

export function registerBusiness(body: RegisterBusiness): Promise<Account> {
  return api<Account>('/api/v1/businesses', { method: 'POST', body });
}

export function registerUser(body: RegisterUser): Promise<Account> {
  return api<Account>('/api/v1/users', { method: 'POST', body });
}

export function logOut(): Promise<void> {
  return api<void>('/api/v1/auth/session', { method: 'DELETE', expectUnauthorized: true });
}

export function changePassword(body: ChangePassword): Promise<void> {
  return api<void>('/api/v1/auth/password', { method: 'POST', body });
}

export function requestPasswordReset(body: PasswordResetRequest): Promise<{ message: string }> {
  return api<{ message: string }>('/api/v1/auth/password-reset', { method: 'POST', body });
}

/** Signed out or not, a reset link is not a session: a 401 here must not sign anyone out. */
export function confirmPasswordReset(body: PasswordResetConfirm): Promise<void> {
  return api<void>('/api/v1/auth/password-reset/confirm', {
    method: 'POST',
    body,
    expectUnauthorized: true,
  });
}

export const sessionsQueryKey = ['auth', 'sessions'] as const;

export function listSessions(signal?: AbortSignal): Promise<SignedInDevices> {
  return api<SignedInDevices>('/api/v1/auth/sessions', { signal });
}

export function signOutSession(id: string): Promise<void> {
  return api<void>(`/api/v1/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function signOutOtherSessions(): Promise<void> {
  return api<void>('/api/v1/auth/sessions', { method: 'DELETE' });
}
