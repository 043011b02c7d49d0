import { z } from 'zod';

/** What a notification is about; every row the product writes has one of these kinds. */
export const notificationKindSchema = z.enum([
  'welcome',
  'card_bought',
  'card_sold',
  'card_received',
  'card_redeemed',
  'card_reversed',
  'card_expiring',
  'card_expired',
  'card_blocked',
  'card_refunded',
  'gift_received',
  'gift_accepted',
  'gift_declined',
  'gift_returned',
  'gift_cancelled',
  'withdrawal_status',
  'bank_account_changed',
  /** Something about the account's safety, e.g. the transaction PIN was blocked after repeated lock-outs. */
  'security_alert',
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** The seed's words for a gift that arrives. */
export const GIFT_RECEIVED_TITLE = 'Someone sent you a gift card. Click for details';

export const notificationSchema = z
  .object({
    id: z.uuid(),
    kind: notificationKindSchema,
    title: z.string(),
    body: z.string(),
    link: z.string().nullable().describe('Where it leads in the web app (a path)'),
    read: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = z
  .object({
    items: z.array(notificationSchema).describe('Newest first'),
    nextCursor: z.string().nullable(),
    unread: z.number().int().describe('How many of all your notifications are unread'),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(200).optional(),
});

export const markReadSchema = z
  .union([
    z
      .object({
        ids: z
          .array(z.uuid({ error: 'That is not a valid notification id.' }))
          .min(1)
          .max(100),
      })
      .strict(),
    z.object({ all: z.literal(true) }).strict(),
  ])
  .meta({
    id: 'MarkNotificationsRead',
    description: '`{ ids }` marks those read, `{ all: true }` marks every one',
  });
export type MarkRead = z.infer<typeof markReadSchema>;

export const unreadCountSchema = z.object({ unread: z.number().int() }).meta({ id: 'UnreadCount' });

/** A mail as the local mailbox shows it (the embedded default keeps mail instead of sending it). */
export const mailSchema = z
  .object({
    id: z.uuid(),
    kind: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    status: z.enum(['queued', 'sent', 'failed']),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Mail' });
export type Mail = z.infer<typeof mailSchema>;

export const mailboxSchema = z
  .object({ items: z.array(mailSchema).describe('Newest first') })
  .meta({ id: 'Mailbox' });
