import type { AccountDeletionParticipant } from '../../lib/account-deletion';
import { stopSellingAll } from './account-deletion.repository';

/** A deleted business's gift-card designs are withdrawn from sale; nothing stands in the way. */
export const catalogueDeletionParticipant: AccountDeletionParticipant = {
  assess: async () => ({ blockers: [] }),
  async erase(tx, account) {
    if (account.role === 'business') await stopSellingAll(tx, account.id);
  },
};
