import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { Redemption } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { Button, ButtonLink } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api';
import { formatDateTime, shortMaskedCode } from './format';
import { getRedemption, reverseRedemption, soldCardKeys } from './till-api';

const CLOCK_TICK_MS = 30_000;

/** The time now, moving on every 30 s, so a window that closes while the page is open closes on screen. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const CHECK_ICON = 'M9 12l2 2 4-4m6 2a9 9 0 11-18 0 9 9 0 0118 0z';

/**
 * /dashboard/redeem/receipts/:id — what the till shows after a redemption (and after a reload): amount
 * taken, balance left, time, reference and the card's last four; Reverse while the 24 hours last; Redeem
 * another card.
 */
export default function ReceiptPage() {
  const { id = '' } = useParams();
  const redemption = useQuery({
    queryKey: soldCardKeys.redemption(id),
    queryFn: ({ signal }) => getRedemption(id, signal),
  });

  if (redemption.isPending) {
    return (
      <>
        <PageHeader title="Receipt" />
        <div role="status" aria-live="polite">
          <span className="sr-only">Loading the receipt…</span>
          <div aria-hidden="true" className="h-80 max-w-lg animate-pulse rounded-2xl bg-slate-200" />
        </div>
      </>
    );
  }
  if (redemption.isError) {
    if (isNotFound(redemption.error)) {
      return (
        <NotFoundPage
          heading="Receipt not found"
          icon={icons.cards}
          title="We couldn’t find this redemption"
          text="The link may be incomplete, or the redemption was made by another business."
        >
          <ButtonLink to="/dashboard/redeem">Redeem a card</ButtonLink>
        </NotFoundPage>
      );
    }
    return (
      <>
        <PageHeader title="Receipt" />
        <LoadError
          title="We couldn’t load this receipt."
          message={redemption.error.message}
          onRetry={() => redemption.refetch()}
          retrying={redemption.isFetching}
        />
      </>
    );
  }
  return <Receipt redemption={redemption.data} />;
}

function Receipt({ redemption }: { redemption: Redemption }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reversal, setReversal] = useState<Redemption | null>(null);
  const attempt = useRef<string | null>(null);
  const now = useNow();
  const isReversal = redemption.kind === 'reverse';
  // The server says until when; past it, the button goes (the server refuses anyway).
  const reversible =
    !isReversal &&
    redemption.reversedAt === null &&
    redemption.reversibleUntil !== null &&
    new Date(redemption.reversibleUntil).getTime() > now;

  const reverse = useMutation({
    mutationFn: () => {
      attempt.current ??= crypto.randomUUID();
      return reverseRedemption(redemption.id, attempt.current);
    },
    onSuccess: async (result) => {
      attempt.current = null;
      setReversal(result);
      setConfirming(false);
      queryClient.setQueryData(soldCardKeys.redemption(result.id), result);
      void queryClient.invalidateQueries({ queryKey: soldCardKeys.all });
      await queryClient.invalidateQueries({ queryKey: soldCardKeys.redemption(redemption.id) });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status > 0 && err.status < 500) attempt.current = null;
      setError(
        err instanceof ApiError ? err.message : 'The redemption could not be reversed. Please try again.',
      );
      if (err instanceof ApiError && err.code === 'REVERSAL_NOT_ALLOWED') {
        void queryClient.invalidateQueries({ queryKey: soldCardKeys.redemption(redemption.id) });
      }
    },
  });

  const rows: { label: string; value: ReactNode }[] = [
    {
      label: isReversal ? 'Amount given back' : 'Amount taken',
      value: <span className="font-semibold tabular-nums">{formatMoney(redemption.amount)}</span>,
    },
    {
      label: 'Balance left',
      value: <span className="font-semibold tabular-nums">{formatMoney(redemption.balanceAfter)}</span>,
    },
    {
      label: 'Time',
      value: <time dateTime={redemption.createdAt}>{formatDateTime(redemption.createdAt)}</time>,
    },
    { label: 'Reference', value: redemption.reference ?? '—' },
    {
      label: 'Card',
      value: (
        <>
          <span aria-hidden="true" className="font-mono">
            {shortMaskedCode(redemption.codeLast4)}
          </span>
          <span className="sr-only">ending in {redemption.codeLast4.split('').join(' ')}</span>
        </>
      ),
    },
    { label: 'Business', value: redemption.businessName },
  ];

  return (
    <>
      <PageHeader title={isReversal ? 'Reversal receipt' : 'Receipt'} />
      <div className="flex max-w-lg flex-col gap-6">
        <section
          aria-labelledby="receipt-title"
          className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
        >
          <div
            className={`flex items-center gap-3 px-5 py-4 sm:px-6 ${
              redemption.reversedAt ? 'bg-slate-100 text-slate-800' : 'bg-emerald-50 text-emerald-900'
            }`}
          >
            <Icon path={redemption.reversedAt ? icons.clock : CHECK_ICON} className="h-7 w-7 shrink-0" />
            <div className="min-w-0">
              <h2 id="receipt-title" className="text-lg font-bold">
                {isReversal
                  ? `${formatMoney(redemption.amount)} given back`
                  : `${formatMoney(redemption.amount)} redeemed`}
              </h2>
              {redemption.reversedAt ? (
                <p className="text-sm">
                  Reversed on{' '}
                  <time dateTime={redemption.reversedAt}>{formatDateTime(redemption.reversedAt)}</time>: the
                  amount went back on the card.
                </p>
              ) : null}
            </div>
          </div>
          <dl className="divide-y divide-slate-100">
            {rows.map((row) => (
              <div key={row.label} className="flex items-baseline justify-between gap-4 px-5 py-3 sm:px-6">
                <dt className="text-sm text-slate-600">{row.label}</dt>
                <dd className="min-w-0 text-right break-words text-slate-900">{row.value}</dd>
              </div>
            ))}
          </dl>
          <div className="border-t border-slate-100 px-5 py-3 sm:px-6">
            <Link
              to={`/dashboard/sold-cards/${redemption.purchasedCardId}`}
              className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              View the card and its last uses
              <Icon path={icons.arrowRight} className="h-4 w-4" />
            </Link>
          </div>
        </section>

        {reversal ? (
          <p
            role="status"
            className="rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900"
          >
            Reversed: {formatMoney(reversal.amount)} went back on the card. Its balance is now{' '}
            {formatMoney(reversal.balanceAfter)}.
          </p>
        ) : null}

        <div className="flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/dashboard/redeem">
            <Icon path={icons.arrowRight} className="h-4 w-4" />
            Redeem another card
          </ButtonLink>
          {reversible ? (
            <Button
              variant="secondary"
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            >
              <Icon path={icons.arrowLeft} className="h-4 w-4" />
              Reverse
            </Button>
          ) : null}
        </div>
        {reversible ? (
          <p className="-mt-3 text-sm text-slate-600">
            Made by mistake? You can reverse it until {formatDateTime(redemption.reversibleUntil!)}.
          </p>
        ) : null}
      </div>

      <ConfirmDialog
        open={confirming}
        title={`Reverse this ${formatMoney(redemption.amount)} redemption?`}
        description="The amount goes back on the card. The redemption stays in the card’s history, marked as reversed."
        confirmLabel="Reverse redemption"
        pendingLabel="Reversing…"
        variant="danger"
        pending={reverse.isPending}
        error={error}
        onConfirm={() => reverse.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
