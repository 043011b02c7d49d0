import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { PageHeader } from '../../components/ui/page-header';
import { CardActions, RecentUses, SoldCardSummary } from './sold-card-view';
import { getSoldCard, soldCardKeys } from './till-api';
import { CardDetailSkeleton } from '../../components/ui/card-detail-skeleton';

function BackLink() {
  return (
    <Link
      to="/dashboard/sold-cards"
      className="mb-4 inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon path={icons.arrowLeft} className="h-4 w-4" />
      Sold cards
    </Link>
  );
}

/**
 * /dashboard/sold-cards/:cardId — one card this business sold: balance, status, expiry, last uses, and
 * Block / Unblock / Refund. Redeeming needs the customer's code, so it happens on Redeem.
 */
export default function SoldCardPage() {
  const { cardId = '' } = useParams();
  const card = useQuery({
    queryKey: soldCardKeys.one(cardId),
    queryFn: ({ signal }) => getSoldCard(cardId, signal),
  });

  if (card.isPending) {
    return (
      <>
        <BackLink />
        <PageHeader title="Sold card" />
        <CardDetailSkeleton label="Loading the card…" />
      </>
    );
  }
  if (card.isError) {
    if (isNotFound(card.error)) {
      return (
        <NotFoundPage
          heading="Card not found"
          icon={icons.cards}
          title="We couldn’t find this card among the cards you sold"
          text="The link may be incomplete, or the card was sold by another business."
        >
          <ButtonLink to="/dashboard/sold-cards">
            <Icon path={icons.arrowLeft} className="h-4 w-4" />
            Back to Sold cards
          </ButtonLink>
        </NotFoundPage>
      );
    }
    return (
      <>
        <BackLink />
        <PageHeader title="Sold card" />
        <LoadError
          title="We couldn’t load this card."
          message={card.error.message}
          onRetry={() => card.refetch()}
          retrying={card.isFetching}
        />
      </>
    );
  }

  return (
    <>
      <BackLink />
      <PageHeader title={`Card ending ${card.data.codeLast4}`}>
        To take payment from it, type or scan the customer’s code on{' '}
        <Link
          to="/dashboard/redeem"
          className="rounded font-semibold text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Redeem
        </Link>
        .
      </PageHeader>
      <div className="flex flex-col gap-6">
        <SoldCardSummary card={card.data} />
        <CardActions card={card.data} />
        <RecentUses card={card.data} />
      </div>
    </>
  );
}
