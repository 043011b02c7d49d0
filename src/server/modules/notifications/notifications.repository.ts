import type { DbOrTx } from '../../db/client';
import { notifications } from '../../db/schema';

export type NotificationKind =
  'welcome' | 'card_bought' | 'card_sold' | 'card_received' | 'card_redeemed' | 'withdrawal_status';

export async function notify(
  db: DbOrTx,
  rows: { accountId: string; kind: NotificationKind; title: string; body: string; link?: string }[],
): Promise<void> {
  if (rows.length > 0) await db.insert(notifications).values(rows);
}
