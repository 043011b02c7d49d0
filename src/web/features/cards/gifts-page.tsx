import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { GIFT_LINK_DAYS, type Gift } from '../../../shared/cards/gifts';
import { formatMoney } from '../../../shared/money';
import { Button, ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { ApiError } from '../../lib/api';
import { formatDateTime } from './format';
import { CancelGiftButton, CorrectAddressButton, DeclineGiftButton, useAcceptGift } from './gift-actions';
import { GiftStatusBadge, giftStatusLabels, recipientLabel } from './gift-status';
import { giftKeys, listGifts, type GiftDirection } from './gifts-api';

/**
 * /user-dashboard/gifts — the gifts this user received (accept or decline one that waits) and sent
 * (cancel one, or correct its address, until it is accepted), newest first, each with its status and a
 * link to the card. The tab is in the address (?tab=sent), so a link can open either.
 */
export default function GiftsPage() {
  const [params, setParams] = useSearchParams();
  const tab: GiftDirection = params.get('tab') === 'sent' ? 'sent' : 'received';
  return (
    <>
      <PageHeader title="Gifts">
        Gift cards people sent you, and the ones you sent. A gift waits {GIFT_LINK_DAYS} days for its
        recipient, then goes back to its sender.
      </PageHeader>
      <Tabs
        label="Gifts"
        selected={tab}
        onSelect={(id) => setParams(id === 'sent' ? { tab: 'sent' } : {}, { replace: true })}
        tabs={[
          { id: 'received', label: 'Received', panel: <GiftList direction="received" /> },
          { id: 'sent', label: 'Sent', panel: <GiftList direction="sent" /> },
        ]}
      />
    </>
  );
}

function GiftList({ direction }: { direction: GiftDirection }) {
  const gifts = useInfiniteQuery({
    queryKey: giftKeys.list(direction),
    queryFn: ({ pageParam, signal }) => listGifts(direction, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  if (gifts.isPending) {
    return (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading gifts…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1].map((n) => (
            <li key={n} className="h-32 animate-pulse rounded-2xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  }
  if (gifts.isError && !gifts.isFetchNextPageError) {
    return (
      <LoadError
        title="We couldn’t load your gifts."
        message={gifts.error.message}
        onRetry={() => gifts.refetch()}
        retrying={gifts.isFetching}
      />
    );
  }
  const items = gifts.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return direction === 'received' ? (
      <EmptyState
        icon={icons.gift}
        title="No gifts yet"
        text="When someone sends you a gift card, it appears here for you to accept."
      />
    ) : (
      <EmptyState
        icon={icons.gift}
        title="You haven’t sent a gift yet"
        text="Open a card in My Gift Cards and choose Send as a gift, or buy a card as a gift."
      >
        <ButtonLink to="/user-dashboard/mycards">My Gift Cards</ButtonLink>
      </EmptyState>
    );
  }
  return (
    <>
      <ul
        aria-label={direction === 'received' ? 'Gifts you received' : 'Gifts you sent'}
        className="flex flex-col gap-3"
      >
        {items.map((gift) => (
          <li key={gift.id}>
            <GiftRow gift={gift} />
          </li>
        ))}
      </ul>
      <LoadMore
        hasNextPage={gifts.hasNextPage}
        isFetchingNextPage={gifts.isFetchingNextPage}
        error={gifts.isFetchNextPageError ? gifts.error.message : null}
        fetchNextPage={gifts.fetchNextPage}
        label="Load more gifts"
      />
    </>
  );
}

/** When, in words: sent, scheduled, or how it ended. */
function whenText(gift: Gift): string {
  if (gift.status === 'scheduled' && gift.deliverAt) return `Will be sent ${formatDateTime(gift.deliverAt)}`;
  const sent = gift.sentAt
    ? `Sent ${formatDateTime(gift.sentAt)}`
    : `Created ${formatDateTime(gift.createdAt)}`;
  if (gift.status === 'pending' && gift.expiresAt)
    return `${sent} · comes back ${formatDateTime(gift.expiresAt)}`;
  if (gift.endedAt)
    return `${sent} · ${giftStatusLabels[gift.status].toLowerCase()} ${formatDateTime(gift.endedAt)}`;
  return sent;
}

function GiftRow({ gift }: { gift: Gift }) {
  const titleId = useId();
  const received = gift.direction === 'received';
  const open = gift.status === 'pending' || gift.status === 'scheduled';
  const amount = formatMoney(gift.card.balance);
  const who = received ? `from ${gift.senderName}` : `to ${recipientLabel(gift)}`;
  const context = `${gift.card.businessName} ${amount} ${who}`;
  // The card, for whoever holds it: the sender's until it is accepted, then the recipient's.
  const cardLink =
    gift.purchasedCardId && (received ? gift.status === 'accepted' : gift.status !== 'accepted')
      ? `/user-dashboard/mycards/${gift.purchasedCardId}`
      : null;

  return (
    <article
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="mt-0.5 h-9 w-12 shrink-0 rounded-md ring-1 ring-black/10"
          style={{ background: gift.card.colour }}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
            <h3 id={titleId} className="min-w-0 font-semibold break-words text-slate-900">
              {gift.card.businessName} · <span className="tabular-nums">{amount}</span>
            </h3>
            <GiftStatusBadge status={gift.status} />
          </div>
          <p className="mt-0.5 text-sm break-words text-slate-700">
            {received ? (
              <>
                From <span className="font-medium text-slate-900">{gift.senderName}</span>
              </>
            ) : (
              <>
                To <span className="font-medium text-slate-900">{recipientLabel(gift)}</span>
              </>
            )}
          </p>
          <p className="mt-0.5 text-sm text-slate-600">{whenText(gift)}</p>
          {gift.message ? (
            <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-700 italic">
              “{gift.message}”
            </p>
          ) : null}
        </div>
      </div>

      {(received && gift.status === 'pending') || (!received && open) || cardLink ? (
        <div className="mt-4 flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:flex-wrap sm:items-center">
          {received && gift.status === 'pending' ? (
            <>
              <AcceptButton gift={gift} context={context} />
              <DeclineGiftButton gift={gift} context={context} />
            </>
          ) : null}
          {!received && open ? (
            <>
              <CorrectAddressButton gift={gift} context={context} />
              <CancelGiftButton gift={gift} context={context} />
            </>
          ) : null}
          {cardLink ? (
            <Link
              to={cardLink}
              aria-label={`View card: ${context}`}
              className="inline-flex items-center gap-1.5 rounded-md px-1 py-2 text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:ml-auto"
            >
              View card
              <Icon path={icons.arrowRight} className="h-4 w-4" />
            </Link>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

function AcceptButton({ gift, context }: { gift: Gift; context: string }) {
  const accept = useAcceptGift(gift.id);
  return (
    <>
      <Button
        onClick={() => accept.mutate()}
        disabled={accept.isPending}
        aria-busy={accept.isPending || undefined}
        aria-label={`Accept gift ${context}`}
      >
        <Icon path="M5 13l4 4L19 7" className="h-4 w-4" />
        {accept.isPending ? 'Accepting…' : 'Accept'}
      </Button>
      {accept.isError ? (
        <p role="alert" className="text-sm text-red-700 sm:basis-full">
          {accept.error instanceof ApiError
            ? accept.error.message
            : 'Something went wrong. Please try again.'}
        </p>
      ) : null}
    </>
  );
}
