import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { makeNuban } from '../../../../shared/wallet/banks';
import type { DbOrTx } from '../../../db/client';
import { sandboxTransfers } from '../../../db/schema/wallet';
import { InvalidSignatureError } from '../../../lib/providers';
import type { PayoutProvider, TransferState } from './payout-provider';

/**
 * Documented sandbox accounts (Guaranty Trust Bank, code 058): one the bank does not know, and one whose
 * transfers fail, so both paths can be seen. Every other valid NUBAN resolves to a name derived from its
 * number and its transfers settle a moment later.
 */
export const SANDBOX_BANK_CODE = '058';
export const SANDBOX_UNKNOWN_ACCOUNT = makeNuban(SANDBOX_BANK_CODE, '000000000');
export const SANDBOX_FAILING_ACCOUNT = makeNuban(SANDBOX_BANK_CODE, '999999999');

const FIRST = [
  'Adaeze',
  'Babatunde',
  'Chinedu',
  'Funmilayo',
  'Ibrahim',
  'Ngozi',
  'Oluwaseun',
  'Yetunde',
  'Emeka',
  'Aisha',
];
const LAST = [
  'Okafor',
  'Adeyemi',
  'Bello',
  'Eze',
  'Olawale',
  'Nwosu',
  'Abubakar',
  'Okonkwo',
  'Balogun',
  'Musa',
];

export function sandboxAccountName(accountNumber: string): string {
  const digest = createHash('sha256').update(accountNumber).digest();
  return `${FIRST[digest[0]! % FIRST.length]} ${LAST[digest[1]! % LAST.length]}`.toUpperCase();
}

/** How long a sandbox transfer stays pending before it settles (or fails). */
export const SANDBOX_SETTLE_MS = 1500;

/**
 * The sandbox keeps its transfers in its own table keyed by our reference: a second request with the same
 * reference is the same transfer (as with a real provider), which is what makes payouts exactly-once.
 */
export function createSandboxPayouts(deps: { db: DbOrTx; settleMs?: number }): PayoutProvider {
  const settleMs = deps.settleMs ?? SANDBOX_SETTLE_MS;
  async function state(reference: string): Promise<TransferState> {
    const [transfer] = await deps.db
      .select({
        accountNumber: sandboxTransfers.accountNumber,
        ageMs: sql<number>`(extract(epoch FROM now() - ${sandboxTransfers.createdAt}) * 1000)::float8`,
      })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.reference, reference));
    const transferCode = `TRF_SANDBOX_${reference}`;
    if (!transfer) return { status: 'failed', reason: 'The bank has no record of this transfer.' };
    if (transfer.ageMs < settleMs) return { status: 'pending', transferCode };
    if (transfer.accountNumber === SANDBOX_FAILING_ACCOUNT) {
      return { status: 'failed', reason: 'The receiving bank rejected the transfer.', transferCode };
    }
    return { status: 'success', transferCode };
  }
  return {
    name: 'sandbox',
    async resolveAccount(_bankCode, accountNumber) {
      if (accountNumber === SANDBOX_UNKNOWN_ACCOUNT) return null;
      return { accountName: sandboxAccountName(accountNumber) };
    },
    async transfer(transfer) {
      await deps.db
        .insert(sandboxTransfers)
        .values({
          reference: transfer.reference,
          accountNumber: transfer.accountNumber,
          amount: transfer.amount,
          currency: transfer.currency,
        })
        .onConflictDoNothing({ target: sandboxTransfers.reference });
      return state(transfer.reference);
    },
    checkTransfer: state,
    parseWebhook() {
      // The sandbox reports transfers when asked (checkTransfer); it sends no webhooks.
      throw new InvalidSignatureError('the sandbox payout provider sends no webhooks');
    },
  };
}
