import { formatMoney } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import type { AccountDeletionParticipant, DeletingAccount } from '../../lib/account-deletion';
import {
  lockOwnedCardsWithBalance,
  openGiftsSent,
  ownedCardsWithBalance,
  soldCardsWithBalance,
} from './account-deletion.repository';
import { writeActivity } from './cards.repository';

export const GIVEN_UP_REFERENCE = 'Given up by its holder on account deletion';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The cards room's part in deleting an account. A user's spendable cards are given up (each gets a `void`
 * activity taking its balance to 0, so its history still sums to its balance: ADR 010); a gift on its way
 * must end first. A business cannot leave while cards it sold can still be spent.
 */
export const cardsDeletionParticipant: AccountDeletionParticipant = {
  async assess(tx: DbOrTx, account: DeletingAccount) {
    const money = (total: bigint) => ({ amount: Number(total), currency: account.currency });
    if (account.role === 'business') {
      const sold = await soldCardsWithBalance(tx, account.id);
      if (sold.count === 0) return { blockers: [] };
      return {
        blockers: [
          {
            code: 'SOLD_CARDS_HAVE_BALANCE',
            message: `${plural(sold.count, 'card')} you sold still ${sold.count === 1 ? 'holds' : 'hold'} ${formatMoney(money(sold.total))} your customers can spend. They must be used up or expire first.`,
            amount: money(sold.total),
            count: sold.count,
          },
        ],
      };
    }
    const gifts = await openGiftsSent(tx, account.id);
    const cards = await ownedCardsWithBalance(tx, account.id);
    return {
      blockers:
        gifts.count === 0
          ? []
          : [
              {
                code: 'GIFT_IN_PROGRESS',
                message: `You have ${plural(gifts.count, 'gift')} on ${gifts.count === 1 ? 'its' : 'their'} way (${formatMoney(money(gifts.total))}). Cancel ${gifts.count === 1 ? 'it' : 'them'} in Gifts, or wait until ${gifts.count === 1 ? 'it is' : 'they are'} accepted, first.`,
                amount: money(gifts.total),
                count: gifts.count,
              },
            ],
      cardsToGiveUp: cards,
    };
  },

  async erase(tx: DbOrTx, account: DeletingAccount) {
    if (account.role !== 'user') return;
    for (const card of await lockOwnedCardsWithBalance(tx, account.id)) {
      await writeActivity(
        tx,
        {
          purchasedCardId: card.id,
          kind: 'void',
          amount: -card.balance,
          balanceAfter: 0n,
          actorId: account.id,
          reference: GIVEN_UP_REFERENCE,
        },
        { balance: 0n, status: 'void' },
      );
    }
  },
};
