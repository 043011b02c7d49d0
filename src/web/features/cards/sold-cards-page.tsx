import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { SoldCard } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { EmptyState } from '../../components/ui/empty-state';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { formatDate, shortMaskedCode, statusLabels } from './format';
import { StatusBadge } from './status-badge';
import { listSoldCards, soldCardKeys } from './till-api';
import { TillNav } from './till-nav';

const SEARCH_DELAY_MS = 300;

/** What the search box holds, as the server matches it: four code characters, look-alikes read as digits. */
function normaliseLast4(text: string): string {
  return text
    .toUpperCase()
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 4);
}

/**
 * /dashboard/sold-cards — every card this business sold, newest first, with its balance and status; search
 * by the code's last four (the group before the check character). Each row opens the card, where it can be
 * blocked, unblocked or refunded. Rows are cards on a phone and a grid from 768 px, so nothing overflows.
 */
export default function SoldCardsPage() {
  const [params, setParams] = useSearchParams();
  const q = normaliseLast4(params.get('q') ?? '');
  const [text, setText] = useState(q);
  const searchId = useId();

  // Search once four characters are typed (the server matches the last four exactly), or when cleared.
  useEffect(() => {
    const next = normaliseLast4(text);
    if (next === q || (next.length > 0 && next.length < 4)) return;
    const timer = setTimeout(() => setParams(next ? { q: next } : {}, { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  const cards = useInfiniteQuery({
    queryKey: soldCardKeys.list(q),
    queryFn: ({ pageParam, signal }) => listSoldCards(q, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  const typed = normaliseLast4(text);
  let body;
  if (cards.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading the cards you sold…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-20 animate-pulse rounded-2xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (cards.isError && !cards.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load the cards you sold."
        message={cards.error.message}
        onRetry={() => cards.refetch()}
        retrying={cards.isFetching}
      />
    );
  } else {
    const items = cards.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        q ? (
          <EmptyState
            icon={icons.cards}
            title={`No card ending in ${q}`}
            text="Check the four characters before the last dash of the code, or clear the search."
          />
        ) : (
          <EmptyState
            icon={icons.cards}
            title="No cards sold yet"
            text="Cards your customers buy appear here, newest first, with what is left on each."
          />
        )
      ) : (
        <>
          {/* Column names, for the grid from 768 px; each row also says what its numbers are. */}
          <div
            aria-hidden="true"
            className="hidden grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1.3fr)_minmax(0,1fr)_6rem_1.25rem] gap-4 px-5 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase md:grid"
          >
            <span>Card</span>
            <span>Sold</span>
            <span>Balance</span>
            <span>Expires</span>
            <span>Status</span>
            <span />
          </div>
          <ul className="flex flex-col gap-3" aria-label="Cards you sold">
            {items.map((card) => (
              <li key={card.id}>
                <SoldCardRow card={card} />
              </li>
            ))}
          </ul>
          <LoadMore
            hasNextPage={cards.hasNextPage}
            isFetchingNextPage={cards.isFetchingNextPage}
            error={cards.isFetchNextPageError ? cards.error.message : null}
            fetchNextPage={cards.fetchNextPage}
            label="Load more cards"
          />
        </>
      );
  }

  return (
    <>
      <PageHeader title="Sold cards">
        Every card your customers bought, newest first, with what is left on it. Open one to block, unblock or
        refund it.
      </PageHeader>
      <TillNav />
      <div className="mb-6 max-w-sm">
        <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
          Search by the code’s last four
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="e.g. 7Q4K"
          autoComplete="off"
          spellCheck={false}
          maxLength={12}
          aria-describedby={`${searchId}-hint`}
          className="mt-1.5 w-full rounded-lg border border-slate-300 px-3.5 py-2.5 font-mono text-base tracking-wider text-slate-900 uppercase shadow-sm outline-none transition placeholder:tracking-normal placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
        />
        <p id={`${searchId}-hint`} className="mt-1.5 text-xs text-slate-600">
          {typed.length > 0 && typed.length < 4
            ? `${4 - typed.length} more character${typed.length === 3 ? '' : 's'} to search.`
            : 'The four characters before the last dash, as the customer’s card shows them.'}
        </p>
      </div>
      {body}
    </>
  );
}

function SoldCardRow({ card }: { card: SoldCard }) {
  return (
    <div className="group relative">
      {/* The row is the picture; the link laid over it says the same in words. */}
      <div
        aria-hidden="true"
        className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm transition group-hover:border-brand-300 group-hover:shadow-md md:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1.3fr)_minmax(0,1fr)_6rem_1.25rem] md:px-5"
      >
        <div className="flex min-w-0 items-center gap-3">
          <span
            className="h-9 w-12 shrink-0 rounded-md ring-1 ring-black/10"
            style={{ background: card.colour }}
          />
          <div className="min-w-0">
            <p className="truncate font-mono font-semibold tracking-wide text-slate-900">
              {shortMaskedCode(card.codeLast4)}
            </p>
            <p className="truncate font-mono text-xs text-slate-600">{card.uniqueId}</p>
          </div>
        </div>
        <div className="justify-self-end md:col-start-5 md:row-start-1 md:justify-self-start">
          <StatusBadge status={card.status} />
        </div>
        <p className="text-sm text-slate-700 md:col-start-2 md:row-start-1">
          <span className="text-slate-600 md:hidden">Sold </span>
          {formatDate(card.purchasedAt)}
        </p>
        <p className="text-right text-sm md:col-start-3 md:row-start-1 md:text-left">
          <span className="font-semibold text-slate-900 tabular-nums">{formatMoney(card.balance)}</span>
          <span className="text-slate-600"> of {formatMoney(card.initialValue)}</span>
        </p>
        <p className="col-span-2 text-sm text-slate-600 md:col-span-1 md:col-start-4 md:row-start-1">
          <span className="md:hidden">Expires </span>
          {card.expiresAt ? formatDate(card.expiresAt) : 'Never'}
        </p>
        <Icon
          path="M9 5l7 7-7 7"
          className="hidden h-5 w-5 text-slate-500 md:col-start-6 md:row-start-1 md:block"
        />
      </div>
      <Link
        to={`/dashboard/sold-cards/${card.id}`}
        aria-label={`Card ending ${card.codeLast4}, sold ${formatDate(card.purchasedAt)}, balance ${formatMoney(card.balance)} of ${formatMoney(card.initialValue)}, expires ${card.expiresAt ? formatDate(card.expiresAt) : 'never'}, ${statusLabels[card.status]}`}
        className="absolute inset-0 rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      />
    </div>
  );
}
