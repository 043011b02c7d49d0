import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Outlet } from 'react-router';
import { purchasedCardKeys } from '../features/cards/api';
import { giftKeys } from '../features/cards/gifts-api';
import { useNotificationStream } from '../features/notifications/use-notifications-live';
import { useGiftCardStore } from '../lib/store';
import { queryClient } from './query-client';

/** TanStack Query is loaded with the screens that fetch data, not with the screens that do not. */
export default function QueryShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <LiveNotifications />
      <Outlet />
    </QueryClientProvider>
  );
}

/**
 * One notification stream for the tab, open while someone is signed in (any page, dashboard or not) and
 * closed when they log out or the session is lost. A new notification may be about a gift or a card
 * (a gift arrived, was accepted, came back): the lists on screen are fetched again.
 */
function LiveNotifications() {
  const client = useQueryClient();
  const signedIn = useGiftCardStore((s) => Boolean(s.bizClient ?? s.userData));
  const onChange = useCallback(
    (unread: number, previous: number | undefined) => {
      if (previous === undefined || unread <= previous) return;
      void client.invalidateQueries({ queryKey: giftKeys.all });
      void client.invalidateQueries({ queryKey: purchasedCardKeys.mine });
    },
    [client],
  );
  useNotificationStream(signedIn, onChange);
  return null;
}
