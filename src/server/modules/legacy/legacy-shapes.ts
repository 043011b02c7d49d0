import type { z } from 'zod';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import type { legacyBusinessSchema } from '../../../shared/legacy/schemas';
import { toLegacyCard } from '../../../shared/legacy/schemas';
import { toLegacyMajorUnits } from '../../../shared/money';
import type { Db } from '../../db/client';
import type { AccountRow } from '../accounts/accounts.service';
import { walletBalance } from '../wallet/wallet.service';

/** The old client's business session: the account with its wallet balance in naira and its cards. */
export async function toLegacyBusiness(
  db: Db,
  currency: string,
  account: AccountRow,
  cards: GiftCard[],
): Promise<z.infer<typeof legacyBusinessSchema>> {
  const balance = await walletBalance(db, account.id, currency);
  return {
    _id: account.id,
    name: account.name,
    Balance: toLegacyMajorUnits(balance),
    email: account.email,
    phoneNumber: account.phone,
    giftCard: cards.map(toLegacyCard),
    logo: account.logoKey ? `/uploads/${account.logoKey}` : '',
  };
}
