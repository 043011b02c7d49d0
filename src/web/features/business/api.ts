import type { Money } from '../../../shared/money';
import { api } from '../../lib/api';

export interface Wallet {
  balance: Money;
}

/** The signed-in business's wallet: its available balance in minor units. */
export function getWallet(signal?: AbortSignal): Promise<Wallet> {
  return api<Wallet>('/api/v1/wallet', { signal });
}

export const walletQueryKey = ['wallet'] as const;
