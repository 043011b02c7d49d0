import { useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { GiftRequest } from '../../../shared/cards/gifts';
import type { GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import { formatMoney } from '../../../shared/money';
import { Avatar } from '../../components/ui/avatar';
import { Button, ButtonLink } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { PageHeader } from '../../components/ui/page-header';
import { cardKeys, getGiftCard } from '../catalogue/api';
import { LargeTile } from '../catalogue/large-tile';
import { validityLabel } from '../catalogue/validity';
import { showGiftErrors, useGiftForm, type GiftForm } from '../cards/gift-form';
import { BuyAsGiftDialog } from './buy-as-gift-dialog';
import { usePurchase } from './use-purchase';
import { CardDetailSkeleton } from '../../components/ui/card-detail-skeleton';

function BackLink() {
  return (
    <Link
      to="/user-dashboard"
      className="mb-4 inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon path={icons.arrowLeft} className="h-4 w-4" />
      All Gift Cards
    </Link>
  );
}

/** Seed §2 card detail (/user-dashboard/card/:id), made real: the chosen card, and buying it. */
export default function UserCardPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const card = useQuery<GiftCard, Error, GiftCard, ReturnType<typeof cardKeys.one>>({
    queryKey: cardKeys.one(id),
    queryFn: ({ signal }) => getGiftCard(id, signal),
    // Opened from the grid, the tile is already known: show it at once while the card itself loads.
    placeholderData: () => {
      for (const [, data] of queryClient.getQueriesData<InfiniteData<GiftCardPage>>({
        queryKey: ['Allgiftcards'],
      })) {
        const found = data?.pages.flatMap((page) => page.items).find((item) => item.id === id);
        if (found) return found;
      }
      return undefined;
    },
  });
  const giftForm = useGiftForm();
  const [giftOpen, setGiftOpen] = useState(false);
  const { purchase, busy } = usePurchase({
    // An answer about the gift goes under its fields, in the dialog still open.
    onGiftError: (error) => showGiftErrors(giftForm, error),
  });

  if (card.isPending) {
    return (
      <>
        <BackLink />
        <PageHeader title="Gift card" />
        <CardDetailSkeleton label="Loading gift card…" />
      </>
    );
  }

  if (card.isError) {
    if (isNotFound(card.error)) {
      return (
        <NotFoundPage
          heading="Gift card not found"
          icon={icons.gift}
          title="We couldn’t find this gift card"
          text="It may have been removed, or the link is incomplete. Browse the gift cards on sale instead."
        >
          <ButtonLink to="/user-dashboard">
            <Icon path={icons.arrowLeft} className="h-4 w-4" />
            Back to All Gift Cards
          </ButtonLink>
        </NotFoundPage>
      );
    }
    return (
      <>
        <BackLink />
        <PageHeader title="Gift card" />
        <LoadError
          title="We couldn’t load this gift card."
          message={card.error.message}
          onRetry={() => card.refetch()}
          retrying={card.isFetching}
        />
      </>
    );
  }

  return (
    <CardDetail
      card={card.data}
      busy={busy}
      onPurchase={() => purchase(card.data.id)}
      gift={{
        form: giftForm,
        open: giftOpen,
        setOpen: setGiftOpen,
        buy: (gift) => purchase(card.data.id, gift),
      }}
    />
  );
}

interface GiftChoice {
  form: GiftForm;
  open: boolean;
  setOpen: (open: boolean) => void;
  buy: (gift: GiftRequest) => void;
}

function CardDetail({
  card,
  busy,
  onPurchase,
  gift,
}: {
  card: GiftCard;
  busy: boolean;
  onPurchase: () => void;
  gift: GiftChoice;
}) {
  const price = formatMoney(card.amount);
  return (
    <>
      <BackLink />
      <PageHeader title={`${card.businessName} gift card`} />

      <div className="flex flex-col items-center gap-8 lg:flex-row lg:items-start">
        <LargeTile card={card} />

        <section
          aria-label="About this card"
          className="w-full min-w-0 flex-1 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <div className="flex items-center gap-3">
            <Avatar
              name={card.businessName}
              src={card.brandLogoUrl}
              decorative
              className="h-12 w-12 text-lg"
            />
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold text-slate-900">{card.businessName}</p>
              <p className="text-sm text-slate-600">Gift card seller on Giftmart</p>
            </div>
          </div>

          <p className="mt-5 text-slate-700">
            This gift card is made for{' '}
            <strong className="font-semibold text-slate-900">{card.businessName}</strong> products only.
          </p>

          <dl className="mt-5 border-t border-slate-100 pt-5">
            <dt className="text-sm font-medium text-slate-600">Cash Value</dt>
            <dd className="mt-1 text-3xl font-extrabold tracking-tight text-slate-900 tabular-nums">
              {price}
            </dd>
            <dt className="mt-4 text-sm font-medium text-slate-600">Validity</dt>
            <dd className="mt-1 text-slate-900">
              {card.validityMonths === null
                ? 'No expiry: the balance stays until it is spent'
                : `${validityLabel(card.validityMonths)} from the day you buy it`}
            </dd>
          </dl>

          {card.onSale ? (
            <p className="mt-5 text-sm text-slate-600">
              You pay {price} on a secure checkout page. Your card and its secret code are in My Gift Cards as
              soon as the payment is confirmed.
            </p>
          ) : (
            <p
              id="not-on-sale"
              className="mt-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
            >
              {card.businessName} no longer sells this gift card. Cards already bought stay valid.
            </p>
          )}

          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Button
              className="w-full sm:w-auto"
              onClick={busy ? undefined : onPurchase}
              disabled={!card.onSale}
              aria-disabled={busy || undefined}
              aria-describedby={card.onSale ? undefined : 'not-on-sale'}
            >
              {busy && !gift.open ? (
                <>
                  <span
                    aria-hidden="true"
                    className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
                  />
                  Taking you to checkout…
                </>
              ) : (
                <>
                  <Icon path={icons.gift} className="h-5 w-5" />
                  Purchase this card
                </>
              )}
            </Button>
            <Button
              variant="secondary"
              className="w-full sm:w-auto"
              onClick={busy ? undefined : () => gift.setOpen(true)}
              disabled={!card.onSale}
              aria-disabled={busy || undefined}
              aria-describedby={card.onSale ? undefined : 'not-on-sale'}
            >
              <Icon path={icons.gift} className="h-5 w-5" />
              Buy as a gift
            </Button>
          </div>
          {gift.open ? (
            <BuyAsGiftDialog
              card={card}
              form={gift.form}
              busy={busy}
              onBuy={gift.buy}
              onClose={() => gift.setOpen(false)}
            />
          ) : null}
          <p role="status" className="sr-only">
            {busy ? 'Taking you to checkout…' : ''}
          </p>
        </section>
      </div>
    </>
  );
}
