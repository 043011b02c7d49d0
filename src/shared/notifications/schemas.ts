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
  'withdrawal_status',
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;
