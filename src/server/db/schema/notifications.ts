import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Where the notification leads in the app, e.g. /user-dashboard/mycards/<id>. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_account_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // The unread count on every page's navigation.
    index('notifications_unread_idx')
      .on(t.accountId)
      .where(sql`${t.readAt} IS NULL`),
  ],
);

/** What a mail says, kept as parts and drawn as plain text and HTML when it is sent (links made absolute then). */
export interface MailContentColumn {
  heading: string;
  paragraphs: string[];
  action?: { label: string; path: string };
}

/**
 * Mail waiting to go out, written in the same transaction as the event it tells of, and sent by a worker
 * with retries: a mail server that is down delays mail and loses none. Without SMTP the rows are the local
 * mailbox (/dev/mailbox).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    subject: text('subject').notNull(),
    content: jsonb('content').$type<MailContentColumn>().notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may next try (also its lease: a claimed row is pushed ahead while it is being sent). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('mail_outbox_created_idx').on(t.createdAt.desc()),
  ],
);
