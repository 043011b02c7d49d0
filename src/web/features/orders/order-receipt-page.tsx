import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatMoney } from '../../../shared/money';
import { Button, ButtonLink } from '../../components/ui/button';
import { icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { Wordmark } from '../../components/ui/brand';
import { formatDateTime } from '../cards/format';
import { getReceipt, orderKeys, type OrderReceipt } from './api';

/**
 * While a receipt is on screen, printing leaves out the dashboard around it (the sidebar, the top bar and
 * every navigation) through classes on <html>: the shell stays as it is, and leaving the page takes them off.
 */
const PRINT_ONLY_RECEIPT = [
  'print:[&_aside]:hidden',
  'print:[&_header]:hidden',
  'print:[&_nav]:hidden',
  // The sidebar's column (its border) and the grey page behind the receipt.
  'print:[&_div:has(>aside)]:hidden',
  'print:[&_body]:bg-white',
  'print:[&_body_*:has(#receipt-title)]:bg-white',
];

function usePrintOnlyReceipt() {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.add(...PRINT_ONLY_RECEIPT);
    return () => root.classList.remove(...PRINT_ONLY_RECEIPT);
  }, []);
}

/**
 * The receipt of a paid order (/user-dashboard/orders/:orderId/receipt): order number, dates, business,
 * design, amount paid, payment reference and buyer, with a Print button. It prints on its own: no
 * sidebar, navigation or buttons.
 */
export default function OrderReceiptPage() {
  const { orderId = '' } = useParams();
  usePrintOnlyReceipt();
  const receipt = useQuery({
    queryKey: orderKeys.receipt(orderId),
    queryFn: ({ signal }) => getReceipt(orderId, signal),
  });

  if (receipt.isError) {
    if (isNotFound(receipt.error)) {
      return (
        <NotFoundPage
          heading="Receipt not found"
          icon={icons.inbox}
          title="There is no receipt for this order"
          text="A receipt is made once an order is paid. The order may still be waiting for its payment, or it belongs to another account."
        >
          <ButtonLink to="/user-dashboard/orders">Your orders</ButtonLink>
        </NotFoundPage>
      );
    }
    return (
      <LoadError
        title="We couldn’t load this receipt."
        message={receipt.error.message}
        onRetry={() => receipt.refetch()}
        retrying={receipt.isFetching}
      />
    );
  }
  if (!receipt.data) {
    return (
      <p role="status" className="py-10 text-center text-slate-600">
        Loading the receipt…
      </p>
    );
  }
  return <Receipt receipt={receipt.data} />;
}

function Receipt({ receipt }: { receipt: OrderReceipt }) {
  const { design } = receipt;
  return (
    <div className="mx-auto max-w-2xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link
          to="/user-dashboard/orders"
          className="rounded text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          ← Back to orders
        </Link>
        <Button onClick={() => window.print()}>Print</Button>
      </div>
      <article
        aria-labelledby="receipt-title"
        className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 print:rounded-none print:border-0 print:p-0 print:shadow-none"
      >
        <div className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 pb-5">
          <div>
            <Wordmark />
            <h1 id="receipt-title" className="mt-3 text-2xl font-bold tracking-tight text-slate-900">
              Receipt
            </h1>
          </div>
          <div className="text-left sm:text-right">
            <p className="text-sm text-slate-600">Amount paid</p>
            <p className="text-2xl font-bold text-slate-900 tabular-nums">{formatMoney(receipt.amount)}</p>
            {receipt.status === 'refunded' ? (
              <p className="mt-1 text-sm font-semibold text-sky-800">
                Refunded{receipt.refundedAt ? ` on ${formatDateTime(receipt.refundedAt)}` : ''}
              </p>
            ) : (
              <p className="mt-1 text-sm font-semibold text-emerald-800">Paid</p>
            )}
          </div>
        </div>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 pt-5 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
          <Fact term="Order number">
            <span className="font-mono break-all max-sm:text-xs">{receipt.id}</span>
          </Fact>
          <Fact term="Date">
            <time dateTime={receipt.paidAt ?? receipt.createdAt}>
              {formatDateTime(receipt.paidAt ?? receipt.createdAt)}
            </time>
          </Fact>
          <Fact term="Business">{design.businessName}</Fact>
          <Fact term="Gift card">
            <span className="inline-flex items-center gap-2">
              <span
                aria-hidden="true"
                className="h-4 w-6 shrink-0 rounded ring-1 ring-black/10 print:hidden"
                style={{ backgroundColor: design.colour }}
              />
              <span className="font-mono">{design.uniqueId}</span>
            </span>
          </Fact>
          <Fact term="Amount paid">
            <span className="font-semibold tabular-nums">{formatMoney(receipt.amount)}</span>
          </Fact>
          <Fact term="Payment reference">
            <span className="font-mono break-all">{receipt.reference}</span>
          </Fact>
          <Fact term="Bought by">
            {receipt.buyer.name}
            <span className="block break-all text-slate-600">{receipt.buyer.email}</span>
          </Fact>
          {receipt.gift ? (
            <Fact term="Gift for">{receipt.gift.recipientName ?? receipt.gift.recipient}</Fact>
          ) : null}
        </dl>
        <p className="mt-6 border-t border-slate-200 pt-4 text-xs text-slate-600">
          Keep this receipt for your records. The card’s secret code is never printed here: it is in My Gift
          Cards.
        </p>
      </article>
      {receipt.purchasedCardId ? (
        <div className="mt-4 flex justify-end print:hidden">
          <ButtonLink to={`/user-dashboard/mycards/${receipt.purchasedCardId}`} variant="secondary">
            View card
          </ButtonLink>
        </div>
      ) : null}
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-900 max-sm:mb-1">{children}</dd>
    </div>
  );
}
