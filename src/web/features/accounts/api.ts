import type {
  Account,
  Login,
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
