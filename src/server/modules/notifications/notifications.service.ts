import type { NotificationKind } from '../../../shared/notifications/schemas';
import type { DbOrTx } from '../../db/client';
import type { MailContentColumn } from '../../db/schema/notifications';
import { emailAddresses, insertMails, insertNotifications } from './notifications.repository';

/** A mail's words: drawn as plain text and simple HTML when it is sent, its action's path made absolute. */
export interface MailContent extends MailContentColumn {
  subject: string;
}

export interface NewNotification {
  accountId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Where the notification leads in the web app. */
  link?: string;
  /** Also e-mail it to the account's address (through the outbox, sent by the mail worker). */
  mail?: MailContent;
}

/**
 * Writes notifications (and their mails) in the caller's transaction, so an event and the news of it
 * commit together, or neither does. The database announces each new row to the account's open pages.
 */
export async function notify(db: DbOrTx, rows: NewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  await insertNotifications(
    db,
    rows.map(({ accountId, kind, title, body, link }) => ({ accountId, kind, title, body, link })),
  );
  const mailed = rows.filter((r) => r.mail);
  if (mailed.length === 0) return;
  const addresses = await emailAddresses(db, [...new Set(mailed.map((r) => r.accountId))]);
  await queueMail(
    db,
    mailed.flatMap((r) => {
      const to = addresses.get(r.accountId);
      return to ? [{ ...r.mail!, to, kind: r.kind, accountId: r.accountId }] : [];
    }),
  );
}

/** Queues mail to any address (e.g. a gift's recipient who has no account yet), in the caller's transaction. */
export async function queueMail(
  db: DbOrTx,
  mails: (MailContent & { to: string; kind: string; accountId?: string })[],
): Promise<void> {
  await insertMails(
    db,
    mails.map(({ to, kind, accountId, subject, heading, paragraphs, action }) => ({
      toAddress: to,
      kind,
      accountId: accountId ?? null,
      subject,
      content: { heading, paragraphs, ...(action ? { action } : {}) },
    })),
  );
}
