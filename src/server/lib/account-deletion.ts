import type { Role } from '../../shared/accounts/schemas';
import type { DeletionBlocker } from '../../shared/accounts/profile';
import type { DbOrTx } from '../db/client';

/** The account being deleted, as the rooms that hold its things need it. */
export interface DeletingAccount {
  id: string;
  role: Role;
  /** Its address before anonymisation (mail to it is deleted too). */
  email: string;
  /** The platform currency, for totals. */
  currency: string;
}

export interface DeletionAssessment {
  /** What must be settled first, in words; any blocker refuses the deletion. */
  blockers: DeletionBlocker[];
  /** A user's cards that still hold money: they refuse the deletion unless the user gives them up. */
  cardsToGiveUp?: { count: number; total: bigint };
}

/**
 * A room that keeps something of an account takes part in deleting it, so the accounts room can delete an
 * account without importing cards, wallet or catalogue (they already import accounts). app.ts hands the
 * participants to the accounts room. Both calls run in the deletion's one transaction, after the account's
 * row is locked: `assess` says what stands in the way, `erase` ends or anonymises the room's part (money
 * records — ledger entries, card activities, orders, withdrawals — stay).
 */
export interface AccountDeletionParticipant {
  assess(tx: DbOrTx, account: DeletingAccount): Promise<DeletionAssessment>;
  erase(tx: DbOrTx, account: DeletingAccount): Promise<void>;
}
