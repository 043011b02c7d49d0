import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { RETRY_BASE_MS, RETRY_MAX_MS } from '../../lib/constants';
import { getUnreadCount, NOTIFICATION_STREAM_URL, notificationKeys } from './api';

/** The unread count the menu's badge shows; the live stream keeps it current. */
export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => getUnreadCount(signal),
    enabled,
    staleTime: 60_000,
  });
}

function parseUnread(data: unknown): number | null {
  try {
    const parsed = JSON.parse(String(data)) as { unread?: unknown };
    return typeof parsed.unread === 'number' && Number.isInteger(parsed.unread) && parsed.unread >= 0
      ? parsed.unread
      : null;
  } catch {
    return null;
  }
}

/**
 * The account's live notification stream (Server-Sent Events): one EventSource per tab, open only while
 * `enabled` (signed in) and closed when it turns false (log out, a lost session). Each `unread` event —
 * sent on connect and on every change — sets the count in the cache and has the list fetched again;
 * `onChange(unread, previous)` lets the app refresh what a new notification may be about.
 *
 * The browser reconnects by itself after a dropped connection. An answer that is not a stream (an error
 * status) closes it for good; then the count is asked for through the API — a 401 there signs the tab
 * out, which closes this — and the stream is opened again with back-off.
 */
export function useNotificationStream(
  enabled: boolean,
  onChange?: (unread: number, previous: number | undefined) => void,
) {
  const queryClient = useQueryClient();
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const retryLater = () => {
      const delay = Math.min(RETRY_BASE_MS * 2 ** failures, RETRY_MAX_MS);
      failures += 1;
      retryTimer = setTimeout(() => {
        if (stopped) return;
        getUnreadCount()
          .then((unread) => {
            if (stopped) return;
            queryClient.setQueryData(notificationKeys.unread, unread);
            open();
          })
          // Signed out (the 401 listener turns `enabled` off, which stops this) or offline: later.
          .catch(() => {
            if (!stopped) retryLater();
          });
      }, delay);
    };

    const open = () => {
      // Same origin: the session cookie goes with it.
      const stream = new EventSource(NOTIFICATION_STREAM_URL);
      source = stream;
      stream.addEventListener('unread', (event) => {
        failures = 0;
        const unread = parseUnread((event as MessageEvent).data);
        if (unread === null) return;
        const previous = queryClient.getQueryData<number>(notificationKeys.unread);
        queryClient.setQueryData(notificationKeys.unread, unread);
        void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
        onChangeRef.current?.(unread, previous);
      });
      stream.addEventListener('error', () => {
        if (stream.readyState !== EventSource.CLOSED) return; // the browser is reconnecting
        stream.close();
        retryLater();
      });
    };

    open();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [enabled, queryClient]);
}
