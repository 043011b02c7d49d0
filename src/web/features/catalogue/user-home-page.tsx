import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { memo, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError, LoadMore, TileSkeletons } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { useGiftCardStore } from '../../lib/store';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import { cardKeys, listCatalogue } from './api';
import { GiftCardTile } from './gift-card-tile';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * Seed §2 user home, "All Gift Cards": every business's cards on sale, newest first, as a wrapping grid of
 * tiles that open the card. Cached under the seed's key `Allgiftcards` (§7) plus the search text; more
 * cards load as the list scrolls. The search (sent 300 ms after the last keystroke) lives in the address
 * (?q=), so Back from a card restores it.
 */
export default function UserHomePage() {
  const user = useGiftCardStore((s) => s.userData);
  const [searchParams, setSearchParams] = useSearchParams();
  const q = (searchParams.get('q') ?? '').trim();
  const [text, setText] = useState(q);
  const searchId = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The address changed by itself (Back, or the Home link): the box follows it. Not when the change is this
  // box's own search arriving (sent 300 ms after a pause, drawn later on a busy phone): what was typed since
  // stays. Once it has arrived it is forgotten, so Back to the same search still fills the box.
  const [shownQ, setShownQ] = useState(q);
  const [sentQ, setSentQ] = useState<string | null>(null);
  if (q !== shownQ) {
    setShownQ(q);
    if (q === sentQ) setSentQ(null);
    else if (q !== text.trim()) setText(q);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const writeQ = useCallback(
    (value: string) => {
      // Only a search that changes the address arrives; one that does not must not be waited for.
      setSentQ(value === (new URLSearchParams(window.location.search).get('q') ?? '') ? null : value);
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (value) next.set('q', value);
          else next.delete('q');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  function onType(value: string) {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => writeQ(value.trim()), SEARCH_DEBOUNCE_MS);
  }

  const cards = useInfiniteQuery({
    queryKey: cardKeys.catalogue(q),
    queryFn: ({ pageParam, signal }) => listCatalogue(q, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // While a new search loads, the last results stay on screen (dimmed) instead of flashing away.
    placeholderData: keepPreviousData,
  });

  function clearSearch() {
    clearTimeout(timer.current);
    setText('');
    writeQ('');
    document.getElementById(searchId)?.focus();
  }

  const searching = cards.isPlaceholderData && cards.isFetching;
  // The tiles are drawn from the cards a step behind, in the background (useDeferredValue): a query's answer
  // re-renders at once and in one task, and a page of tiles was the longest task of the catalogue's start on a
  // slow phone (issue 14, Lighthouse's total blocking time). Until the first page is drawn, its skeletons stay.
  const shownData = useDeferredValue(cards.data);
  const items = useMemo(() => shownData?.pages.flatMap((page) => page.items) ?? [], [shownData]);

  let body;
  if (cards.isPending || (shownData === undefined && cards.data !== undefined)) {
    body = <TileSkeletons label="Loading gift cards…" />;
  } else if (cards.isError && !cards.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load the gift cards."
        message={cards.error.message}
        onRetry={() => cards.refetch()}
        retrying={cards.isFetching}
      />
    );
  } else if (items.length === 0 && searching) {
    body = <TileSkeletons />;
  } else if (items.length === 0) {
    body = q ? (
      <EmptyState
        icon={icons.gift}
        title={`No gift cards match “${q}”`}
        text="Check the spelling, or search for another business name."
      >
        <Button variant="secondary" onClick={clearSearch}>
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState
        icon={icons.gift}
        title="No gift cards on sale yet"
        text="Gift cards that businesses put on sale will appear here. Check back soon."
      />
    );
  } else {
    body = (
      <div className={searching ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
        <CatalogueTiles items={items} />
        <LoadMore
          hasNextPage={cards.hasNextPage && !searching}
          isFetchingNextPage={cards.isFetchingNextPage}
          error={cards.isFetchNextPageError ? cards.error.message : null}
          fetchNextPage={cards.fetchNextPage}
          label="Load more cards"
        />
      </div>
    );
  }

  return (
    <>
      <PageHeader title="All Gift Cards">
        Welcome{user?.name ? `, ${user.name}` : ''}. Browse gift cards from businesses on Giftmart and shop at
        your favourite store.
      </PageHeader>

      <search className="mb-6 block max-w-md" aria-label="Gift cards">
        <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
          Search by business name
        </label>
        <div className="relative mt-1.5">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">
            <Icon path="M21 21l-4.35-4.35M11 18a7 7 0 100-14 7 7 0 000 14z" className="h-5 w-5" />
          </span>
          <input
            id={searchId}
            name="q"
            type="search"
            value={text}
            onChange={(event) => onType(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && text) {
                event.preventDefault();
                clearSearch();
              }
            }}
            placeholder="e.g. Mama Put Kitchen"
            autoComplete="off"
            enterKeyHint="search"
            className="w-full rounded-lg border border-slate-300 bg-white py-2.5 pl-10 pr-3.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
        </div>
        <p role="status" aria-live="polite" className="mt-1.5 min-h-5 text-sm text-slate-600">
          {searching
            ? 'Searching…'
            : q && items.length > 0
              ? `Showing gift cards from businesses matching “${q}”`
              : ''}
        </p>
      </search>

      {body}
    </>
  );
}

/** The grid of tiles, drawn again only when its cards change (not on each keystroke or status). */
const CatalogueTiles = memo(function CatalogueTiles({ items }: { items: GiftCard[] }) {
  return (
    <ul className="flex flex-wrap justify-center gap-6 sm:justify-start" aria-label="Gift cards on sale">
      {items.map((card) => (
        <li key={card.id} className="group relative">
          {/* The tile is the picture; the link laid over it says the same in words. */}
          <div aria-hidden="true" className="transition group-hover:-translate-y-0.5">
            <GiftCardTile card={card} className="transition group-hover:shadow-lg" />
          </div>
          <Link
            to={`/user-dashboard/card/${card.id}`}
            aria-label={`${card.businessName} gift card, ${formatMoney(card.amount)}, ${card.uniqueId}`}
            className="absolute inset-0 rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600"
          />
        </li>
      ))}
    </ul>
  );
});
