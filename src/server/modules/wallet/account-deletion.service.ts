import type { DeletionBlocker } from '../../../shared/accounts/profile';
import { formatMoney } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import type { AccountDeletionParticipant, DeletingAccount } from '../../lib/account-deletion';
import { deletePin, removeBankAccounts, withdrawalsInFlight } from './account-deletion.repository';
import { lockWallet, walletBalance } from './wallet.service';

/**
 * The wallet room's part in deleting a business: refused while the wallet holds money or a withdrawal is on
 * its way; then the PIN and bank accounts go. The ledger stays as it is.
 */
export const walletDeletionParticipant: AccountDeletionParticipant = {
  async assess(tx: DbOrTx, account: DeletingAccount) {
    if (account.role !== 'business') return { blockers: [] };
    // The wallet's lock (as a withdrawal takes it), so no withdrawal starts between this check and the commit.
    await lockWallet(tx, account.id, account.currency);
    const balance = await walletBalance(tx, account.id, account.currency);
    const inFlight = await withdrawalsInFlight(tx, account.id);
    const blockers: DeletionBlocker[] = [];
    if (balance.amount > 0) {
      blockers.push({
        code: 'WALLET_HAS_MONEY',
        message: `Your wallet still holds ${formatMoney(balance)}. Withdraw it first.`,
        amount: balance,
      });
    }
    if (inFlight.count > 0) {
      const amount = { amount: Number(inFlight.total), currency: account.currency };
      blockers.push({
        code: 'WITHDRAWAL_IN_FLIGHT',
        message:
          inFlight.count === 1
            ? `A withdrawal of ${formatMoney(amount)} is still on its way to your bank. Wait until it is paid.`
            : `${inFlight.count} withdrawals (${formatMoney(amount)}) are still on their way to your bank. Wait until they are paid.`,
        amount,
        count: inFlight.count,
      });
    }
    return { blockers };
  },

  async erase(tx: DbOrTx, account: DeletingAccount) {
    if (account.role !== 'business') return;
    await deletePin(tx, account.id);
    await removeBankAccounts(tx, account.id);
  },
};
