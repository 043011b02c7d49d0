import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Gift } from '../../../shared/cards/gifts';
import {
  myCardsFilterSchema,
  myCardsSortSchema,
  type MyCardsFilter,
  type MyCardsSort,
} from '../../../shared/cards/my-cards';
import type { PurchasedCard } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { FilterChips } from '../../components/ui/filter-chips';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore, TileSkeletons } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { GiftCardTile } from '../catalogue/gift-card-tile';
import { listPurchasedCards, purchasedCardKeys } from './api';
import { formatDate, statusLabels } from './format';
import { recipientLabel } from './gift-status';
import { StatusBadge } from './status-badge';

type Filter = MyCardsFilter | 'all';

const filters: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'used', label: 'Used up' },
  { value: 'expired', label: 'Expired' },
  { value: 'sent', label: 'Sent' },
];

const emptyFilter: Record<MyCardsFilter, { title: string; text: string }> = {
  active: { title: 'No active cards', text: 'None of your cards has money left to spend right now.' },
  used: { title: 'No used-up cards', text: 'A card you spend to zero is listed here.' },
  expired: { title: 'No expired cards', text: 'None of your cards expired with money on it.' },
  sent: { title: 'No cards sent', text: 'Cards you give away are listed here once they are accepted.' },
};

/**
 * Seed §2 "My Gift Cards", made real: the cards this user bought or was sent, each showing what is left on
 * it, narrowed to active, used up, expired or sent (the cards they gave away) and sorted by newest or by
 * balance. Filter and sort live in the address (?status=&sort=). The seed's empty state stays, word for
 * word, for a user with no cards at all.
 */
export default function UserMyCardsPage() {
  const [params, setParams] = useSearchParams();
  const statusParam = myCardsFilterSchema.safeParse(params.get('status'));
  const sortParam = myCardsSortSchema.safeParse(params.get('sort'));
  const status: Filter = statusParam.success ? statusParam.data : 'all';
  const sort: MyCardsSort = sortParam.success ? sortParam.data : 'newest';
  const sortId = useId();

  const cards = useInfiniteQuery({
    queryKey: purchasedCardKeys.mineFiltered(status, sort),
    queryFn: ({ pageParam, signal }) =>
      listPurchasedCards({ status: status === 'all' ? undefined : status, sort }, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  function update(next: { status?: Filter; sort?: MyCardsSort }) {
    const copy = new URLSearchParams(params);
    const nextStatus = next.status ?? status;
    const nextSort = next.sort ?? sort;
    if (nextStatus === 'all') copy.delete('status');
    else copy.set('status', nextStatus);
    if (nextSort === 'newest') copy.delete('sort');
    else copy.set('sort', nextSort);
    setParams(copy, { replace: true });
  }

  const filtered = status !== 'all' || sort !== 'newest';
  const firstPage = cards.data?.pages[0];
  const hasCards = Boolean(firstPage?.items.length || firstPage?.sentGifts.length);
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
    const sent = cards.data.pages.flatMap((page) => page.sentGifts);
    body =
      items.length === 0 && sent.length === 0 ? (
        status === 'all' ? (
          <EmptyState
            sentence
            icon={icons.cards}
            title="Whoops! No Activity"
            text="You'll see your gift cards soon."
          >
            <ButtonLink to="/user-dashboard">Browse All Gift Cards</ButtonLink>
          </EmptyState>
        ) : (
          <EmptyState icon={icons.cards} {...emptyFilter[status]}>
            <button
              type="button"
              onClick={() => update({ status: 'all' })}
              className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              Show all cards
            </button>
          </EmptyState>
        )
      ) : (
        <>
          <ul
            className="flex flex-wrap justify-center gap-x-6 gap-y-8 sm:justify-start"
            aria-label={status === 'sent' ? 'Cards you sent' : 'Your gift cards'}
          >
            {items.map((card) => (
              <li key={card.id}>
                <OwnedCardLink card={card} />
              </li>
            ))}
            {sent.map((gift) => (
              <li key={gift.id}>
                <SentCard gift={gift} />
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
        {hasCards || filtered
          ? 'The cards you bought or were sent. Open one to see its code and history.'
          : null}
      </PageHeader>
      {!cards.isPending ? (
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <FilterChips
            label="Show cards"
            options={filters}
            value={status}
            onChange={(value) => update({ status: value })}
          />
          <div className="flex items-center gap-2">
            <label htmlFor={sortId} className="text-sm font-medium whitespace-nowrap text-slate-700">
              Sort by
            </label>
            <select
              id={sortId}
              value={sort}
              disabled={status === 'sent'}
              onChange={(event) => update({ sort: event.target.value as MyCardsSort })}
              className="min-h-9 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-base text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none disabled:bg-slate-100 disabled:text-slate-500 md:text-sm"
            >
              <option value="newest">Newest first</option>
              <option value="balance">Highest balance</option>
            </select>
          </div>
        </div>
      ) : null}
      {body}
    </>
  );
}

/** A card given away and accepted: as it was handed on; it is its recipient's card now. */
function SentCard({ gift }: { gift: Gift }) {
  const value = formatMoney(gift.card.balance);
  const when = gift.endedAt ?? gift.sentAt ?? gift.createdAt;
  return (
    <div className="group relative">
      <div aria-hidden="true">
        <GiftCardTile
          className="opacity-90 transition group-hover:-translate-y-0.5 group-hover:shadow-lg"
          card={{
            businessName: gift.card.businessName,
            brandLogoUrl: gift.card.brandLogoUrl,
            amount: gift.card.balance,
            colour: gift.card.colour,
            uniqueId: gift.card.uniqueId,
          }}
        />
        <div className="mt-2 w-[270px] px-1 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="min-w-0 truncate text-slate-700">
              To <span className="font-semibold text-slate-900">{recipientLabel(gift)}</span>
            </span>
            <span className="inline-flex items-center rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-violet-900 ring-1 ring-violet-600/20 ring-inset">
              Sent
            </span>
          </div>
          <p className="mt-0.5 text-slate-600">Accepted {formatDate(when)}</p>
        </div>
      </div>
      <Link
        to={`/gifts/${gift.id}`}
        aria-label={`${gift.card.businessName} gift card worth ${value}, sent to ${recipientLabel(gift)}, accepted ${formatDate(when)}`}
        className="absolute -inset-1 rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      />
    </div>
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
