import type { Wallet } from '../../../shared/wallet/schemas';
import { api } from '../../lib/api';

export type { Wallet };

/** The signed-in business's wallet: its available balance (minor units) and set-up state. */
export function getWallet(signal?: AbortSignal): Promise<Wallet> {
  return api<Wallet>('/api/v1/wallet', { signal });
}

export const walletQueryKey = ['wallet'] as const;
