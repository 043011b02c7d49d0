import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Notification, NotificationKind, NotificationPage } from '../../../shared/notifications/schemas';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api';
import { safeNextPath } from '../../lib/next-path';
import { listNotifications, markRead, notificationKeys } from './api';
import { absoluteTime, relativeTime } from './format-time';
import { useUnreadCount } from './use-notifications-live';

const TICK_MS = 60_000;

const kindIcons: Partial<Record<NotificationKind, string>> = {
  welcome: icons.home,
  card_bought: icons.cards,
  card_sold: icons.tag,
  card_received: icons.gift,
  card_redeemed: icons.scan,
  card_reversed: icons.scan,
  card_expiring: icons.clock,
  card_expired: icons.clock,
  card_blocked: icons.lock,
  card_refunded: icons.arrowLeft,
  withdrawal_status: icons.bank,
  security_alert: icons.lock,
};

type Pages = InfiniteData<NotificationPage, string | undefined>;

/**
 * Seed §2 "Notification" (business) and "Notifications" (user), made real: this account's notifications,
 * newest first, read or unread, each leading to what it is about (opening one marks it read). The seed's
 * empty state stays for an account with none. The live stream (app/query-shell) refreshes the list.
 */
export default function NotificationsPage({ title }: { title: string }) {
  const queryClient = useQueryClient();
  const now = useNow(TICK_MS);
  const [error, setError] = useState<string | null>(null);
  const list = useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ pageParam, signal }) => listNotifications(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  // Shown read at once; the server's answer (and the stream's event) bring the true count.
  function showRead(ids: string[] | 'all') {
    queryClient.setQueryData<Pages>(notificationKeys.list, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) =>
                ids === 'all' || ids.includes(item.id) ? { ...item, read: true } : item,
              ),
            })),
          }
        : data,
    );
  }

  const markAll = useMutation({
    mutationFn: () => markRead({ all: true }),
    onSuccess: ({ unread }) => {
      setError(null);
      showRead('all');
      queryClient.setQueryData(notificationKeys.unread, unread);
    },
    onError: (err) =>
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.'),
  });

  function markOne(notification: Notification) {
    if (notification.read) return;
    showRead([notification.id]);
    markRead({ ids: [notification.id] })
      .then(({ unread }) => queryClient.setQueryData(notificationKeys.unread, unread))
      .catch(() => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));
  }

  // The live count (the stream and mark-as-read keep it current), else what the list said.
  const unreadCount = useUnreadCount();
  const unread = unreadCount.data ?? list.data?.pages[0]?.unread ?? 0;

  let body;
  if (list.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading your notifications…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-20 animate-pulse rounded-2xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (list.isError && !list.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your notifications."
        message={list.error.message}
        onRetry={() => list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else {
    const items = list.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        <EmptyState title="Whoops! No Activity" text="You'll get new notifications soon" icon={icons.bell} />
      ) : (
        <>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-600" aria-live="polite">
              {unread === 0 ? 'All caught up.' : `${unread} unread`}
            </p>
            <Button
              variant="secondary"
              onClick={() => markAll.mutate()}
              disabled={unread === 0 || markAll.isPending}
              aria-busy={markAll.isPending || undefined}
            >
              <Icon path="M5 13l4 4L19 7" className="h-4 w-4" />
              {markAll.isPending ? 'Marking…' : 'Mark all as read'}
            </Button>
          </div>
          {error ? (
            <p role="alert" className="mb-4 text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <ul
            aria-label="Your notifications"
            className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
          >
            {items.map((notification) => (
              <li key={notification.id}>
                <NotificationRow notification={notification} now={now} onOpen={markOne} />
              </li>
            ))}
          </ul>
          <LoadMore
            hasNextPage={list.hasNextPage}
            isFetchingNextPage={list.isFetchingNextPage}
            error={list.isFetchNextPageError ? list.error.message : null}
            fetchNextPage={list.fetchNextPage}
          />
        </>
      );
  }

  return (
    <>
      <PageHeader title={title} />
      {body}
    </>
  );
}

function NotificationRow({
  notification,
  now,
  onOpen,
}: {
  notification: Notification;
  now: number;
  onOpen: (notification: Notification) => void;
}) {
  const { read } = notification;
  const to = safeNextPath(notification.link);
  const content = (
    <>
      <span
        className={`mt-0.5 flex h-10 w-10 shrink-0 items-center justify-center rounded-full ${
          read ? 'bg-slate-100 text-slate-500' : 'bg-brand-50 text-brand-600'
        }`}
      >
        <Icon
          path={
            kindIcons[notification.kind] ?? (notification.kind.startsWith('gift') ? icons.gift : icons.bell)
          }
        />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-start justify-between gap-3">
          <span
            className={`min-w-0 break-words ${read ? 'font-medium text-slate-700' : 'font-semibold text-slate-900'}`}
          >
            {/* Said first, so a screen reader hears it before the title. */}
            <span className="sr-only">{read ? 'Read: ' : 'Unread: '}</span>
            {notification.title}
          </span>
          {read ? null : (
            <span aria-hidden="true" className="mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-brand-600" />
          )}
        </span>
        {notification.body ? (
          <span className="mt-0.5 block break-words text-sm text-slate-600">{notification.body}</span>
        ) : null}
        <time
          dateTime={notification.createdAt}
          title={absoluteTime(notification.createdAt)}
          className="mt-1 block text-xs text-slate-600"
        >
          {relativeTime(notification.createdAt, now)}
        </time>
      </span>
    </>
  );
  const rowClass = `flex w-full items-start gap-3 px-4 py-4 text-left sm:px-5 ${read ? '' : 'bg-brand-50/40'}`;

  if (to) {
    return (
      <Link
        to={to}
        onClick={() => onOpen(notification)}
        className={`${rowClass} transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600`}
      >
        {content}
      </Link>
    );
  }
  return (
    <div className={`${rowClass} flex-wrap sm:flex-nowrap`}>
      {content}
      {read ? null : (
        <Button
          variant="ghost"
          className="ml-13 px-3 py-1.5 sm:ml-0"
          aria-label={`Mark as read: ${notification.title}`}
          onClick={() => onOpen(notification)}
        >
          Mark as read
        </Button>
      )}
    </div>
  );
}

/** The time now, moved on every `everyMs`, so "5 minutes ago" stays true while the page is open. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
