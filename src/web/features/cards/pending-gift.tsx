import { useQuery } from '@tanstack/react-query';
import { GIFT_LINK_DAYS, type Gift } from '../../../shared/cards/gifts';
import { LoadError } from '../../components/ui/load-more';
import type { PurchasedCardDetail } from './api';
import { formatDateTime } from './format';
import { CancelGiftButton, CorrectAddressButton } from './gift-actions';
import { GiftStatusBadge } from './gift-status';
import { findOpenGiftForCard, giftKeys } from './gifts-api';

/**
 * While the holder's card is in a gift (gift_pending): to whom, when it was sent or will be, when it comes
 * back if nobody accepts it, with Cancel gift and Correct address.
 */
export function PendingGift({ card }: { card: PurchasedCardDetail }) {
  const gift = useQuery({
    queryKey: giftKeys.pendingOnCard(card.id),
    queryFn: ({ signal }) => findOpenGiftForCard(card.id, signal),
    enabled: card.status === 'gift_pending',
    staleTime: 0,
  });
  if (card.status !== 'gift_pending') return null;

  let body;
  if (gift.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading the gift…</span>
        <div aria-hidden="true" className="h-24 animate-pulse rounded-xl bg-slate-100" />
      </div>
    );
  } else if (gift.isError) {
    body = (
      <LoadError
        title="We couldn’t load the gift."
        message={gift.error.message}
        onRetry={() => gift.refetch()}
        retrying={gift.isFetching}
      />
    );
  } else if (!gift.data) {
    body = (
      <p className="text-slate-600">This card is in a gift that is no longer waiting. Reload the page.</p>
    );
  } else {
    body = <GiftFacts gift={gift.data} />;
  }

  return (
    <section
      aria-labelledby="pending-gift-title"
      className="mt-8 rounded-2xl border border-violet-200 bg-violet-50/60 p-6 shadow-sm"
    >
      <h2 id="pending-gift-title" className="text-lg font-semibold text-slate-900">
        {gift.data?.status === 'scheduled' ? 'Gift scheduled' : 'Gift on its way'}
      </h2>
      <div className="mt-4">{body}</div>
    </section>
  );
}

function GiftFacts({ gift }: { gift: Gift }) {
  const scheduled = gift.status === 'scheduled';
  return (
    <>
      <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
        <div className="min-w-0 sm:col-span-2">
          <dt className="text-sm font-medium text-slate-600">To</dt>
          <dd className="mt-1 break-words text-slate-900">
            {gift.recipientName ? (
              <>
                <span className="font-semibold">{gift.recipientName}</span>{' '}
                <span className="text-slate-700">({gift.recipient})</span>
              </>
            ) : (
              <span className="font-semibold">{gift.recipient}</span>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-600">{scheduled ? 'Will be sent' : 'Sent'}</dt>
          <dd className="mt-1 text-slate-900">
            {scheduled && gift.deliverAt ? (
              <time dateTime={gift.deliverAt}>{formatDateTime(gift.deliverAt)}</time>
            ) : gift.sentAt ? (
              <time dateTime={gift.sentAt}>{formatDateTime(gift.sentAt)}</time>
            ) : (
              'Now'
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-600">Comes back to you</dt>
          <dd className="mt-1 text-slate-900">
            {gift.expiresAt ? (
              <>
                <time dateTime={gift.expiresAt}>{formatDateTime(gift.expiresAt)}</time>, unless accepted
              </>
            ) : (
              `${GIFT_LINK_DAYS} days after it is sent, unless accepted`
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-600">Status</dt>
          <dd className="mt-1">
            <GiftStatusBadge status={gift.status} />
          </dd>
        </div>
        {gift.message ? (
          <div className="min-w-0 sm:col-span-2">
            <dt className="text-sm font-medium text-slate-600">Your message</dt>
            <dd className="mt-1 break-words whitespace-pre-line text-slate-800 italic">“{gift.message}”</dd>
          </div>
        ) : null}
      </dl>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <CorrectAddressButton gift={gift} />
        <CancelGiftButton gift={gift} />
      </div>
    </>
  );
}
