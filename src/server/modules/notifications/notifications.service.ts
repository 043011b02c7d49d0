import type {
  Mail,
  MarkRead,
  Notification,
  NotificationKind,
  NotificationPage,
} from '../../../shared/notifications/schemas';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { Config } from '../../env';
import { notFound } from '../../lib/app-error';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import type { CoreDeps } from '../../lib/deps';
import { publicUrl } from '../../lib/public-url';
import { renderMail } from './mail-render';
import {
  countUnread,
  insertMails,
  insertNotifications,
  insertNotificationsWithMails,
  listNotifications,
  notificationCtes,
  notificationRecordsJson,
  notificationValues,
  listRecentMails,
  markNotificationsRead,
  type AccountMailRow,
  type MailContentColumn,
  type NewNotificationRow,
  type NotificationRow,
} from './notifications.repository';

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

function rowsOf(rows: NewNotification[]): { written: NewNotificationRow[]; mailed: AccountMailRow[] } {
  return {
    written: rows.map(({ accountId, kind, title, body, link }) => ({ accountId, kind, title, body, link })),
    mailed: rows
      .filter((r) => r.mail)
      .map(({ accountId, kind, mail }) => {
        const { subject, heading, paragraphs, action } = mail!;
        return { accountId, kind, subject, content: { heading, paragraphs, ...(action ? { action } : {}) } };
      }),
  };
}

/**
 * Writes notifications (and their mails) in the caller's transaction, so an event and the news of it
 * commit together, or neither does. The database announces each new row to the account's open pages.
 */
export async function notify(db: DbOrTx, rows: NewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  const { written, mailed } = rowsOf(rows);
  if (mailed.length === 0) await insertNotifications(db, written);
  else await insertNotificationsWithMails(db, written, mailed);
}

/**
 * Notifications without mail as the JSON records a database function writes with its own event (issue 14:
 * request_withdrawal, one call for the whole transaction).
 */
export function notificationRecords(rows: Omit<NewNotification, 'mail'>[]): string {
  return notificationRecordsJson(rows);
}

/**
 * The same notifications as parts of another room's statement: its CTEs. An event written in one statement
 * (no transaction round trips) carries its news with it. Fixed SQL, built once with that statement;
 * `notificationsWrittenValues` gives the notifications' values for it.
 */
export const notificationsWritten: SQL = notificationCtes;

export function notificationsWrittenValues(rows: NewNotification[]): Record<string, string> {
  const { written, mailed } = rowsOf(rows);
  return notificationValues(written, mailed);
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

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The account's notifications, newest first, a page at a time, with how many of all of them are unread. */
export async function listMyNotifications(
  deps: CoreDeps,
  accountId: string,
  query: { limit: number; cursor?: string },
): Promise<NotificationPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const [rows, unread] = await Promise.all([
    listNotifications(deps.db, accountId, query.limit + 1, after),
    countUnread(deps.db, accountId),
  ]);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((r) => toNotification(r.notification)),
    nextCursor:
      rows.length > query.limit
        ? encodeCursor({ cursorTime: page.at(-1)!.cursorTime, id: page.at(-1)!.notification.id })
        : null,
    unread,
  };
}

export async function countMyUnread(deps: Pick<CoreDeps, 'db'>, accountId: string): Promise<number> {
  return countUnread(deps.db, accountId);
}

/**
 * Marks the account's own notifications read (`ids`: those of them; `all`: every one) and answers what is
 * still unread. Ids that are not the account's (or not anyone's) are passed over, never reported: the
 * answer must not tell which ids exist.
 */
export async function markMyNotificationsRead(
  deps: CoreDeps,
  accountId: string,
  request: MarkRead,
): Promise<{ unread: number }> {
  await markNotificationsRead(deps.db, accountId, 'all' in request ? 'all' : [...new Set(request.ids)]);
  return { unread: await countUnread(deps.db, accountId) };
}

/** The local mailbox is a developer's tool: only when mail is kept (no SMTP_URL), and never in production. */
export function mailboxEnabled(config: Pick<Config, 'SMTP_URL' | 'NODE_ENV'>): boolean {
  return !config.SMTP_URL && config.NODE_ENV !== 'production';
}

export const MAILBOX_SIZE = 100;

/** The newest mail as it is (or would be) sent: text and HTML drawn as the worker draws them. */
export async function listMailbox(deps: CoreDeps, to?: string): Promise<{ items: Mail[] }> {
  if (!mailboxEnabled(deps.config)) {
    throw notFound('The mailbox (it exists only without SMTP_URL, outside production)');
  }
  const siteUrl = publicUrl(deps.config);
  const rows = await listRecentMails(deps.db, MAILBOX_SIZE, to);
  return {
    items: rows.map((row) => {
      const { subject, text, html } = renderMail(row, siteUrl);
      return {
        id: row.id,
        kind: row.kind,
        to: row.toAddress,
        subject,
        text,
        html,
        status: row.status,
        createdAt: row.createdAt.toISOString(),
        sentAt: row.sentAt?.toISOString() ?? null,
      };
    }),
  };
}
