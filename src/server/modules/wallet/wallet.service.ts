import type { Money } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import { ensureOwnedLedgerAccount, ownedAccountBalance } from './ledger.repository';

/** Every business gets its wallet account when it registers, so sales can credit it without a race. */
export async function openWallet(db: DbOrTx, businessId: string, currency: string): Promise<string> {
  return ensureOwnedLedgerAccount(db, 'business_wallet', businessId, currency);
}

export async function walletBalance(db: DbOrTx, businessId: string, currency: string): Promise<Money> {
  const total = await ownedAccountBalance(db, 'business_wallet', businessId, currency);
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('wallet balance beyond safe integer range');
  return { amount: Number(total), currency };
}
