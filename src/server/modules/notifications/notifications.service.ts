import type { NotificationKind } from '../../../shared/notifications/schemas';
import type { DbOrTx } from '../../db/client';
import { insertNotifications } from './notifications.repository';

export interface NewNotification {
  accountId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Where the notification leads in the web app. */
  link?: string;
}

/** Writes notifications in the caller's transaction, so an event and the news of it commit together. */
export async function notify(db: DbOrTx, rows: NewNotification[]): Promise<void> {
  if (rows.length > 0) await insertNotifications(db, rows);
}
