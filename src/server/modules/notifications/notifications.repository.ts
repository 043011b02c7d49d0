import type { NotificationKind } from '../../../shared/notifications/schemas';
import type { DbOrTx } from '../../db/client';
import { notifications } from './notifications.schema';

export type { NotificationKind };

export async function notify(
  db: DbOrTx,
  rows: { accountId: string; kind: NotificationKind; title: string; body: string; link?: string }[],
): Promise<void> {
  if (rows.length > 0) await db.insert(notifications).values(rows);
}
