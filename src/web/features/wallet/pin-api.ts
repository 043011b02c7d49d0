import type { ChangePinInput, CreatePinInput, PinStatus } from '../../../shared/wallet/pin';
import { api } from '../../lib/api';

export type { PinStatus };

/** Under ['wallet'], so invalidating the wallet (Home's Pending item) refreshes this too. */
export const pinStatusQueryKey = ['wallet', 'pin'] as const;

export function getPinStatus(signal?: AbortSignal): Promise<PinStatus> {
  return api<PinStatus>('/api/v1/wallet/pin', { signal });
}

export function createPin(input: CreatePinInput): Promise<PinStatus> {
  return api<PinStatus>('/api/v1/wallet/pin', { method: 'POST', body: input });
}

export function changePin(input: ChangePinInput): Promise<PinStatus> {
  return api<PinStatus>('/api/v1/wallet/pin', { method: 'PUT', body: input });
}
