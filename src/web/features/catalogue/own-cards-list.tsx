import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import { Button } from '../../components/ui/button';
import { showError } from '../../components/ui/dialogs';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icon';
import { ApiError } from '../../lib/api';
import { useGiftCardStore } from '../../lib/store';
import { cardKeys, listOwnCards, setOnSale } from './api';
import { GiftCardTile } from './gift-card-tile';
import { validityLabel } from './validity';

/**
 * Seed §2 "Gift Cards" tab: the business's own cards as tiles, fetched once and cached (refreshed after a
 * create), with how many were sold, and a way to stop or resume selling each one.
 */
export function OwnCardsList({ onCreateFirst }: { onCreateFirst: () => void }) {
  const businessId = useGiftCardStore((s) => s.bizClient?.id) ?? '';
  const queryClient = useQueryClient();
  const cards = useInfiniteQuery({
    queryKey: cardKeys.own(businessId),
    queryFn: ({ pageParam }) => listOwnCards(businessId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: Boolean(businessId),
  });

  const { hash } = useLocation();
  const loaded = cards.isSuccess;
  useEffect(() => {
    // A link from Home's "Top Gift Cards" points at one tile: bring it into view once the list is here.
    if (loaded && hash.startsWith('#card-'))
      document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'center' });
  }, [loaded, hash]);

  const toggle = useMutation({
    mutationFn: (card: GiftCard) => setOnSale(card.id, !card.onSale),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['own-cards', businessId] }),
    onError: (err) => showError('Not changed', err instanceof ApiError ? err.message : 'Please try again.'),
  });

  if (cards.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-600">
        Loading your gift cards…
      </p>
    );
  }
  if (cards.isError) {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-800">
        <p className="font-semibold">We couldn’t load your gift cards.</p>
        <p className="mt-1 text-sm">{cards.error.message}</p>
        <Button variant="secondary" className="mt-4" onClick={() => cards.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const items = cards.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return (
      <EmptyState
        icon={icons.gift}
        title="No gift cards yet"
        text="Create your first card: choose an amount and a colour, and it goes on sale at once."
      >
        <Button onClick={onCreateFirst}>Create your first card</Button>
      </EmptyState>
    );
  }
  return (
    <div>
      <ul className="flex flex-wrap justify-center gap-6 sm:justify-start" aria-label="Your gift cards">
        {items.map((card) => (
          <li key={card.id} id={`card-${card.id}`} className="flex flex-col gap-2">
            <GiftCardTile card={card} />
            <div className="flex items-center justify-between gap-2 px-1 text-sm">
              <span className="text-slate-700">
                <strong className="font-semibold text-slate-900">{card.soldCount}</strong> sold ·{' '}
                <span className={card.onSale ? 'text-emerald-700' : 'text-slate-600'}>
                  {card.onSale ? 'On sale' : 'Stopped'}
                </span>
                {card.validityMonths !== null ? (
                  <>
                    {' '}
                    · <span>Valid {validityLabel(card.validityMonths)}</span>
                  </>
                ) : null}
              </span>
              <button
                type="button"
                onClick={() => toggle.mutate(card)}
                disabled={toggle.isPending}
                aria-label={`${card.onSale ? 'Stop selling' : 'Resume selling'} ${card.uniqueId}`}
                className="rounded-md px-2 py-1 font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
              >
                {card.onSale ? 'Stop selling' : 'Resume selling'}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {cards.hasNextPage ? (
        <div className="mt-8 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => cards.fetchNextPage()}
            disabled={cards.isFetchingNextPage}
          >
            {cards.isFetchingNextPage ? 'Loading…' : 'Show more cards'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
