import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { PurchasedCard } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore, TileSkeletons } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { GiftCardTile } from '../catalogue/gift-card-tile';
import { listPurchasedCards, purchasedCardKeys } from './api';
import { formatDate, statusLabels } from './format';
import { StatusBadge } from './status-badge';

/**
 * Seed §2 "My Gift Cards", made real: the cards this user bought or was sent, newest first, each showing
 * what is left on it. The seed's empty state stays, word for word, for a user with no cards.
 */
export default function UserMyCardsPage() {
  const cards = useInfiniteQuery({
    queryKey: purchasedCardKeys.mineList,
    queryFn: ({ pageParam, signal }) => listPurchasedCards(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  const hasCards = Boolean(cards.data?.pages[0]?.items.length);
  let body;
  if (cards.isPending) {
    body = <TileSkeletons label="Loading your gift cards…" count={3} />;
  } else if (cards.isError && !cards.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your gift cards."
        message={cards.error.message}
        onRetry={() => cards.refetch()}
        retrying={cards.isFetching}
      />
    );
  } else {
    const items = cards.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        <EmptyState
          sentence
          icon={icons.cards}
          title="Whoops! No Activity"
          text="You'll see your gift cards soon."
        >
          <ButtonLink to="/user-dashboard">Browse All Gift Cards</ButtonLink>
        </EmptyState>
      ) : (
        <>
          <ul
            className="flex flex-wrap justify-center gap-x-6 gap-y-8 sm:justify-start"
            aria-label="Your gift cards"
          >
            {items.map((card) => (
              <li key={card.id}>
                <OwnedCardLink card={card} />
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
      <PageHeader title="My Gift Cards">
        {hasCards ? 'The cards you bought, newest first. Open one to see its code and history.' : null}
      </PageHeader>
      {body}
    </>
  );
}

function OwnedCardLink({ card }: { card: PurchasedCard }) {
  const balance = formatMoney(card.balance);
  const initial = formatMoney(card.initialValue);
  return (
    <div className="group relative">
      {/* The tile and its caption are the picture; the link laid over them says the same in words. */}
      <div aria-hidden="true">
        <GiftCardTile
          className="transition group-hover:-translate-y-0.5 group-hover:shadow-lg"
          card={{
            businessName: card.businessName,
            brandLogoUrl: card.brandLogoUrl,
            amount: card.balance,
            colour: card.colour,
            uniqueId: card.uniqueId,
          }}
        />
        <div className="mt-2 w-[270px] px-1 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="text-slate-700">
              of <span className="font-semibold text-slate-900 tabular-nums">{initial}</span>
            </span>
            <StatusBadge status={card.status} />
          </div>
          <p className="mt-0.5 text-slate-600">Bought {formatDate(card.purchasedAt)}</p>
        </div>
      </div>
      <Link
        to={`/user-dashboard/mycards/${card.id}`}
        aria-label={`${card.businessName} gift card, balance ${balance} of ${initial}, ${statusLabels[card.status]}, ${card.uniqueId}`}
        className="absolute -inset-1 rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      />
    </div>
  );
}
