import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { mailOutbox, notifications } from '../../db/schema/notifications';

export type NewNotificationRow = typeof notifications.$inferInsert;
export type NewMailRow = typeof mailOutbox.$inferInsert;
export type MailRow = typeof mailOutbox.$inferSelect;

export async function insertNotifications(db: DbOrTx, rows: NewNotificationRow[]): Promise<void> {
  await db.insert(notifications).values(rows);
}

export async function insertMails(db: DbOrTx, rows: NewMailRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(mailOutbox).values(rows);
}

/** The e-mail address of each account (mail to an account goes to its address at the time of the event). */
export async function emailAddresses(db: DbOrTx, accountIds: string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(accountIds.length === 1 ? eq(accounts.id, accountIds[0]!) : inArray(accounts.id, accountIds));
  return new Map(rows.map((r) => [r.id, r.email]));
}
