import { useEffect, useRef } from 'react';
import { CARD_TILE } from '../../lib/constants';
import { Button } from './button';

/**
 * The end of an infinite list: a sentinel that loads the next page as it scrolls into view (400 px early),
 * and a visible "Load more" button for when the observer is unavailable or someone prefers to click.
 * A failed page shows its message and a "Try again" button instead.
 */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  error,
  fetchNextPage,
  label = 'Load more',
  loadingLabel = 'Loading more…',
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The message of a failed next page, if the last attempt failed. */
  error: string | null;
  fetchNextPage: () => unknown;
  label?: string;
  loadingLabel?: string;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const failed = error !== null;

  useEffect(() => {
    const node = sentinel.current;
    // After a failure, wait for the person to ask again rather than retrying in a loop.
    if (!node || !hasNextPage || isFetchingNextPage || failed) return;
    if (typeof IntersectionObserver === 'undefined') return;
    // A fresh observer reports the sentinel's current state at once, so a page that still leaves the
    // sentinel on screen (a tall window) loads the next one too.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, failed, fetchNextPage]);

  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className="mt-8 flex flex-col items-center gap-3">
      {failed ? (
        <p role="alert" className="text-center text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button
        variant="secondary"
        onClick={() => fetchNextPage()}
        disabled={isFetchingNextPage}
        aria-busy={isFetchingNextPage || undefined}
      >
        {isFetchingNextPage ? loadingLabel : failed ? 'Try again' : label}
      </Button>
    </div>
  );
}

/** Shown while a list's first page loads: placeholder tiles and, with `label`, a spoken "Loading…". */
export function TileSkeletons({ label, count = 6 }: { label?: string; count?: number }) {
  return (
    <div role={label ? 'status' : undefined} aria-live={label ? 'polite' : undefined}>
      {label ? <span className="sr-only">{label}</span> : null}
      <ul aria-hidden="true" className="flex flex-wrap justify-center gap-6 sm:justify-start">
        {Array.from({ length: count }, (_, index) => (
          <li
            key={index}
            className="animate-pulse rounded-2xl bg-slate-200"
            style={{ width: CARD_TILE.width, height: CARD_TILE.height }}
          />
        ))}
      </ul>
    </div>
  );
}

/** A list that could not load at all, with a way to try again. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying = false,
}: {
  title: string;
  message: string;
  onRetry: () => unknown;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-800">
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{message}</p>
      <Button variant="secondary" className="mt-4" onClick={() => onRetry()} disabled={retrying}>
        {retrying ? 'Trying again…' : 'Try again'}
      </Button>
    </div>
  );
}
