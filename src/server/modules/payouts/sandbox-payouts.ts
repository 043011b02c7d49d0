import { createHash } from 'node:crypto';
import { makeNuban } from '../../../shared/wallet/banks';
import { InvalidSignatureError } from '../payments/provider';
import type { PayoutProvider, TransferState } from './payout-provider';

/**
 * Documented sandbox accounts (Guaranty Trust Bank, code 058): one the bank does not know, and one whose
 * transfers fail, so both paths can be seen. Every other valid NUBAN resolves to a name derived from its
 * number and its transfers settle a moment later.
 */
export const SANDBOX_BANK_CODE = '058';
export const SANDBOX_UNKNOWN_ACCOUNT = makeNuban(SANDBOX_BANK_CODE, '000000000');
export const SANDBOX_FAILING_ACCOUNT = makeNuban(SANDBOX_BANK_CODE, '999999999');

const FIRST = ['Adaeze', 'Babatunde', 'Chinedu', 'Funmilayo', 'Ibrahim', 'Ngozi', 'Oluwaseun', 'Yetunde', 'Emeka', 'Aisha'];
const LAST = ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Olawale', 'Nwosu', 'Abubakar', 'Okonkwo', 'Balogun', 'Musa'];

export function sandboxAccountName(accountNumber: string): string {
  const digest = createHash('sha256').update(accountNumber).digest();
  return `${FIRST[digest[0]! % FIRST.length]} ${LAST[digest[1]! % LAST.length]}`.toUpperCase();
}

/** How long a sandbox transfer stays pending before it settles (or fails). */
export const SANDBOX_SETTLE_MS = 1500;

export function createSandboxPayouts(): PayoutProvider {
  const started = new Map<string, { at: number; accountNumber: string }>();
  const state = (reference: string): TransferState => {
    const transfer = started.get(reference);
    if (!transfer) return { status: 'failed', reason: 'The bank has no record of this transfer.' };
    if (Date.now() - transfer.at < SANDBOX_SETTLE_MS) return { status: 'pending', transferCode: `TRF_SANDBOX_${reference}` };
    if (transfer.accountNumber === SANDBOX_FAILING_ACCOUNT) {
      return { status: 'failed', reason: 'The receiving bank rejected the transfer.', transferCode: `TRF_SANDBOX_${reference}` };
    }
    return { status: 'success', transferCode: `TRF_SANDBOX_${reference}` };
  };
  return {
    name: 'sandbox',
    async resolveAccount(_bankCode, accountNumber) {
      if (accountNumber === SANDBOX_UNKNOWN_ACCOUNT) return null;
      return { accountName: sandboxAccountName(accountNumber) };
    },
    async transfer(transfer) {
      if (!started.has(transfer.reference)) started.set(transfer.reference, { at: Date.now(), accountNumber: transfer.accountNumber });
      return state(transfer.reference);
    },
    async checkTransfer(reference) {
      return state(reference);
    },
    parseWebhook() {
      // The sandbox reports transfers when asked (checkTransfer); it sends no webhooks.
      throw new InvalidSignatureError('the sandbox payout provider sends no webhooks');
    },
  };
}
