import type { MarkRead, Mail, NotificationPage } from '../../../shared/notifications/schemas';
import { api } from '../../lib/api';

/** The signed-in account's notifications (list, unread count, mark as read) and the local mailbox. */

const PAGE_SIZE = 20;

export const notificationKeys = {
  /** Everything about this account's notifications. */
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  /** The unread count: set by the live stream, read by the menu's badge. */
  unread: ['notifications', 'unread'] as const,
};

export const mailboxKey = (to: string) => ['dev-mailbox', to] as const;

export function listNotifications(cursor?: string, signal?: AbortSignal, limit = PAGE_SIZE) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor) params.set('cursor', cursor);
  return api<NotificationPage>(`/api/v1/notifications?${params}`, { signal });
}

/** How many are unread, without the live stream (its first event says the same). */
export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await listNotifications(undefined, signal, 1)).unread;
}

export function markRead(body: MarkRead) {
  return api<{ unread: number }>('/api/v1/notifications/read', { method: 'POST', body });
}

/** Mail the embedded default kept instead of sending (only to `to`, when given); a 404 means real SMTP. */
export function getMailbox(to: string, signal?: AbortSignal) {
  const query = to ? `?${new URLSearchParams({ to })}` : '';
  return api<{ items: Mail[] }>(`/api/dev/mailbox${query}`, { signal });
}

export const NOTIFICATION_STREAM_URL = '/api/v1/notifications/stream';
