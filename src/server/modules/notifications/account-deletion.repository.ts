import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export async function deleteNotificationsOf(tx: DbOrTx, accountId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM notifications WHERE account_id = ${accountId}`);
}

/** Mail to the account, queued or sent: nothing more goes out, and no copy of its address stays. */
export async function deleteMailOf(tx: DbOrTx, accountId: string, address: string): Promise<void> {
  await tx.execute(sql`
    DELETE FROM mail_outbox WHERE account_id = ${accountId} OR lower(to_address) = lower(${address})`);
}
