import type { DbOrTx } from '../../db/client';
import { notifications } from '../../db/schema/notifications';

export type NewNotificationRow = typeof notifications.$inferInsert;

export async function insertNotifications(db: DbOrTx, rows: NewNotificationRow[]): Promise<void> {
  await db.insert(notifications).values(rows);
}
