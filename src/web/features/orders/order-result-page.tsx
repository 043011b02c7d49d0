import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatMoney } from '../../../shared/money';
import { Button, ButtonLink } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { PageHeader } from '../../components/ui/page-header';
import { getPurchasedCard, purchasedCardKeys } from '../cards/api';
import { formatDateTime } from '../cards/format';
import { recipientLabel } from '../cards/gift-status';
import { getGift, giftKeys } from '../cards/gifts-api';
import { GiftCardTile } from '../catalogue/gift-card-tile';
import { getOrder, orderKeys, type Order } from './api';

const POLL_EVERY_MS = 1000;
/** How long to keep asking before saying the confirmation is taking longer than usual. */
const POLL_FOR_MS = 60_000;

const CHECK = 'M5 13l4 4L19 7';
const CROSS = icons.close;

/**
 * Where the payment provider sends the buyer back after checkout (/user-dashboard/orders/:orderId).
 * The order stays pending until the provider's confirmation arrives, so it is asked for every second for
 * about a minute; then the page says it is taking longer than usual and offers to check again.
 */
export default function OrderResultPage() {
  const { orderId = '' } = useParams();
  const queryClient = useQueryClient();
  // Bumped by "Check again": restarts the one-minute polling window.
  const [round, setRound] = useState(0);
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [round]);

  const order = useQuery({
    queryKey: orderKeys.one(orderId),
    queryFn: ({ signal }) => getOrder(orderId, signal),
    // A pending order answered from the cache (set when it was created) is always checked again.
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'pending' && !timedOut ? POLL_EVERY_MS : false),
    refetchIntervalInBackground: true,
  });

  const status = order.data?.status;
  useEffect(() => {
    // The Orders page must show this order as it is now.
    if (status && status !== 'pending') void queryClient.invalidateQueries({ queryKey: orderKeys.lists });
  }, [status, queryClient]);

  useEffect(() => {
    // A new card is in My Gift Cards: the list there must not show the old one from the cache (nor the
    // gifts list the gift bought with it).
    if (status === 'paid') {
      void queryClient.invalidateQueries({ queryKey: purchasedCardKeys.mine });
      void queryClient.invalidateQueries({ queryKey: giftKeys.all });
    }
  }, [status, queryClient]);

  function checkAgain() {
    setTimedOut(false);
    setRound((n) => n + 1);
    void order.refetch();
  }

  if (order.isError && !order.data) {
    if (isNotFound(order.error)) {
      return (
        <NotFoundPage
          heading="Order not found"
          icon={icons.inbox}
          title="We couldn’t find this order"
          text="The link may be incomplete, or the order belongs to another account. Your gift cards are in My Gift Cards."
        >
          <div className="flex flex-wrap justify-center gap-3">
            <ButtonLink to="/user-dashboard/mycards">My Gift Cards</ButtonLink>
            <ButtonLink to="/user-dashboard" variant="secondary">
              All Gift Cards
            </ButtonLink>
          </div>
        </NotFoundPage>
      );
    }
    return (
      <>
        <PageHeader title="Your order" />
        <LoadError
          title="We couldn’t check your order."
          message={order.error.message}
          onRetry={() => order.refetch()}
          retrying={order.isFetching}
        />
      </>
    );
  }

  // One panel for every state, so its live heading is announced as the order moves on.
  const data = order.data;
  if (data?.status === 'paid') {
    return (
      <Panel tone="success" title="Payment successful">
        {data.giftId ? <PaidGift order={data} giftId={data.giftId} /> : <Paid order={data} />}
      </Panel>
    );
  }
  if (data?.status === 'refunded') {
    return (
      <Panel tone="refunded" title="Payment refunded">
        <Refunded order={data} />
      </Panel>
    );
  }
  if (data?.status === 'failed') {
    return (
      <Panel tone="failed" title="Payment failed">
        <Failed order={data} />
      </Panel>
    );
  }
  return (
    <Panel tone="pending" title="Confirming your payment…">
      {data ? (
        <>
          <p>
            We are waiting for the payment provider to confirm your payment of{' '}
            <strong className="font-semibold text-slate-900">{formatMoney(data.amount)}</strong> for a{' '}
            {data.businessName} gift card. Please keep this page open.
          </p>
          {timedOut ? (
            <div className="mt-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-left text-amber-900">
              <p role="alert" className="font-semibold">
                This is taking longer than usual.
              </p>
              <p className="mt-1 text-sm">
                If you completed the payment, it will be confirmed soon and your card will appear in My Gift
                Cards. No money is taken twice.
              </p>
              <Button variant="secondary" className="mt-3" onClick={checkAgain} disabled={order.isFetching}>
                {order.isFetching ? 'Checking…' : 'Refresh'}
              </Button>
            </div>
          ) : null}
          <OrderFacts order={data} />
        </>
      ) : (
        <p>Please keep this page open. It takes a few seconds.</p>
      )}
    </Panel>
  );
}

/** Bought as a gift: the card went to the gift (or waits for its delivery time). */
function PaidGift({ order, giftId }: { order: Order; giftId: string }) {
  const gift = useQuery({
    queryKey: giftKeys.one(giftId),
    queryFn: ({ signal }) => getGift(giftId, signal),
  });
  const data = gift.data;
  const scheduled = data?.status === 'scheduled' && data.deliverAt;
  return (
    <>
      <p>
        You paid <strong className="font-semibold text-slate-900">{formatMoney(order.amount)}</strong> for a{' '}
        {order.businessName} gift card.{' '}
        {data ? (
          scheduled ? (
            <>
              Your gift goes to{' '}
              <strong className="font-semibold text-slate-900">{recipientLabel(data)}</strong> on{' '}
              <time dateTime={data.deliverAt!}>{formatDateTime(data.deliverAt!)}</time>.
            </>
          ) : (
            <>
              Your gift is on its way to{' '}
              <strong className="font-semibold text-slate-900">{recipientLabel(data)}</strong>.
            </>
          )
        ) : (
          'Your gift is on its way.'
        )}
      </p>
      <p className="mt-3 text-sm text-slate-600">
        They get a link to accept it. Until they do, the card stays in My Gift Cards and you can cancel the
        gift or correct the address.
      </p>
      {data ? (
        <div className="mt-6 flex justify-center text-left">
          <GiftCardTile
            card={{
              businessName: data.card.businessName,
              brandLogoUrl: data.card.brandLogoUrl,
              amount: data.card.balance,
              colour: data.card.colour,
              uniqueId: data.card.uniqueId,
            }}
          />
        </div>
      ) : null}
      <OrderFacts order={order} />
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/user-dashboard/gifts?tab=sent">
          Your sent gifts
          <Icon path={icons.arrowRight} className="h-4 w-4" />
        </ButtonLink>
        {order.purchasedCardId ? (
          <ButtonLink to={`/user-dashboard/mycards/${order.purchasedCardId}`} variant="secondary">
            View the card
          </ButtonLink>
        ) : null}
      </div>
    </>
  );
}

function Paid({ order }: { order: Order }) {
  const cardId = order.purchasedCardId;
  const card = useQuery({
    queryKey: purchasedCardKeys.mineOne(cardId ?? ''),
    queryFn: ({ signal }) => getPurchasedCard(cardId ?? '', signal),
    enabled: Boolean(cardId),
  });
  return (
    <>
      <p>
        You paid <strong className="font-semibold text-slate-900">{formatMoney(order.amount)}</strong> for a{' '}
        {order.businessName} gift card. It is now in My Gift Cards, with its secret code.
      </p>
      {card.data ? (
        <div className="mt-6 flex justify-center text-left">
          <GiftCardTile
            card={{
              businessName: card.data.businessName,
              brandLogoUrl: card.data.brandLogoUrl,
              amount: card.data.balance,
              colour: card.data.colour,
              uniqueId: card.data.uniqueId,
            }}
          />
        </div>
      ) : null}
      <OrderFacts order={order} />
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        {cardId ? (
          <ButtonLink to={`/user-dashboard/mycards/${cardId}`}>
            View your card
            <Icon path={icons.arrowRight} className="h-4 w-4" />
          </ButtonLink>
        ) : (
          <ButtonLink to="/user-dashboard/mycards">My Gift Cards</ButtonLink>
        )}
        <ButtonLink to="/user-dashboard" variant="secondary">
          Browse more gift cards
        </ButtonLink>
      </div>
    </>
  );
}

/** The business refunded the unused card: the money went back, the card is void. */
function Refunded({ order }: { order: Order }) {
  return (
    <>
      <p>
        {order.businessName} refunded this gift card:{' '}
        <strong className="font-semibold text-slate-900">{formatMoney(order.amount)}</strong> goes back to the
        way you paid, and the card can no longer be spent.
      </p>
      <OrderFacts order={order} />
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        {order.purchasedCardId ? (
          <ButtonLink to={`/user-dashboard/mycards/${order.purchasedCardId}`} variant="secondary">
            See the card’s history
          </ButtonLink>
        ) : null}
        <ButtonLink to="/user-dashboard">All Gift Cards</ButtonLink>
      </div>
    </>
  );
}

function Failed({ order }: { order: Order }) {
  return (
    <>
      <p>
        Your payment of <strong className="font-semibold text-slate-900">{formatMoney(order.amount)}</strong>{' '}
        for a {order.businessName} gift card did not go through.
      </p>
      <p className="mt-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800">
        {order.failureReason ?? 'The payment was not completed. No money was taken.'}
      </p>
      <OrderFacts order={order} />
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to={`/user-dashboard/card/${order.giftCardId}`}>Try again</ButtonLink>
        <ButtonLink to="/user-dashboard" variant="secondary">
          All Gift Cards
        </ButtonLink>
      </div>
    </>
  );
}

function OrderFacts({ order }: { order: Order }) {
  return (
    <dl className="mx-auto mt-6 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-2 border-t border-slate-100 pt-5 text-left text-sm">
      <dt className="text-slate-600">Gift card</dt>
      <dd className="min-w-0 truncate font-medium text-slate-900">
        <Link
          to={`/user-dashboard/card/${order.giftCardId}`}
          className="rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {order.businessName}
        </Link>
      </dd>
      <dt className="text-slate-600">Amount</dt>
      <dd className="font-medium text-slate-900 tabular-nums">{formatMoney(order.amount)}</dd>
      <dt className="text-slate-600">Reference</dt>
      <dd className="min-w-0 break-all font-mono text-slate-900">{order.reference}</dd>
    </dl>
  );
}

const tones = {
  pending: { ring: 'bg-brand-50 text-brand-600', icon: null },
  success: { ring: 'bg-emerald-100 text-emerald-700', icon: CHECK },
  failed: { ring: 'bg-red-100 text-red-700', icon: CROSS },
  refunded: { ring: 'bg-slate-100 text-slate-700', icon: icons.arrowLeft },
} as const;

/** The result card: an icon, the page's one heading, and what happened (announced as it changes). */
function Panel({ tone, title, children }: { tone: keyof typeof tones; title: string; children: ReactNode }) {
  const { ring, icon } = tones[tone];
  return (
    <div className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm sm:px-10">
      <span className={`mx-auto flex h-16 w-16 items-center justify-center rounded-full ${ring}`}>
        {icon ? (
          <Icon path={icon} className="h-8 w-8" />
        ) : (
          <span
            aria-hidden="true"
            className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600"
          />
        )}
      </span>
      <div role="status" aria-live="polite" className="mt-5">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      </div>
      <div className="mt-3 text-slate-700">{children}</div>
    </div>
  );
}
