import type { AccountDeletionParticipant } from '../../lib/account-deletion';
import { deleteMailOf, deleteNotificationsOf } from './account-deletion.repository';

/** A deleted account's notifications and mail (queued or sent) are deleted with it. */
export const notificationsDeletionParticipant: AccountDeletionParticipant = {
  assess: async () => ({ blockers: [] }),
  async erase(tx, account) {
    await deleteNotificationsOf(tx, account.id);
    await deleteMailOf(tx, account.id, account.email);
  },
};
