import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { orderListStatusSchema, type OrderListStatus } from '../../../shared/orders/schemas';
import { formatMoney } from '../../../shared/money';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { FilterChips } from '../../components/ui/filter-chips';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ResponsiveTable, type Column } from '../../components/ui/responsive-table';
import { formatDateTime } from '../cards/format';
import { listOrders, orderKeys, type OrderSummary } from './api';
import { OrderStatusBadge, orderStatusLabels } from './order-status-badge';

type Filter = OrderListStatus | 'all';

const filters: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'paid', label: 'Paid' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'refunded', label: 'Refunded' },
];

const action =
  'relative z-10 inline-flex min-h-9 items-center justify-center rounded-lg px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';
const primaryAction = `${action} bg-brand-600 text-white hover:bg-brand-700`;
const secondaryAction = `${action} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`;

/**
 * Orders (issue 13): every purchase with its state, newest first. A pending one can be resumed at its
 * checkout, a failed one says why and offers to buy again, a paid one opens its card and its receipt. The
 * filter is kept in the address (?status=), so it survives a reload and can be shared.
 */
export default function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const parsed = orderListStatusSchema.safeParse(params.get('status'));
  const status: Filter = parsed.success ? parsed.data : 'all';

  const orders = useInfiniteQuery({
    queryKey: orderKeys.list(status),
    queryFn: ({ pageParam, signal }) => listOrders(status === 'all' ? undefined : status, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  function choose(next: Filter) {
    const copy = new URLSearchParams(params);
    if (next === 'all') copy.delete('status');
    else copy.set('status', next);
    setParams(copy, { replace: true });
  }

  let body;
  if (orders.isPending) {
    body = (
      <p role="status" className="py-10 text-center text-slate-600">
        Loading your orders…
      </p>
    );
  } else if (orders.isError && !orders.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your orders."
        message={orders.error.message}
        onRetry={() => orders.refetch()}
        retrying={orders.isFetching}
      />
    );
  } else {
    const items = orders.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        status === 'all' ? (
          <EmptyState
            icon={icons.cards}
            title="No orders yet"
            text="The gift cards you buy will be listed here."
          >
            <ButtonLink to="/user-dashboard">Browse All Gift Cards</ButtonLink>
          </EmptyState>
        ) : (
          <EmptyState
            title={`No ${orderStatusLabels[status].toLowerCase()} orders`}
            text="None of your orders is in this state."
          >
            <button type="button" className={secondaryAction} onClick={() => choose('all')}>
              Show all orders
            </button>
          </EmptyState>
        )
      ) : (
        <>
          <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white max-md:border-0 max-md:bg-transparent">
            <ResponsiveTable label="Your orders" columns={columns} rows={items} rowKey={(o) => o.id} />
          </div>
          <LoadMore
            hasNextPage={orders.hasNextPage}
            isFetchingNextPage={orders.isFetchingNextPage}
            error={orders.isFetchNextPageError ? orders.error.message : null}
            fetchNextPage={orders.fetchNextPage}
            label="Load more orders"
          />
        </>
      );
  }

  return (
    <>
      <PageHeader title="Orders">
        Everything you bought, newest first. Continue a payment you did not finish, or print a receipt.
      </PageHeader>
      <div className="mb-5">
        <FilterChips label="Show orders" options={filters} value={status} onChange={choose} />
      </div>
      {body}
    </>
  );
}

const columns: Column<OrderSummary>[] = [
  {
    key: 'card',
    header: 'Gift card',
    phone: 'title',
    cell: (order) => <CardCell order={order} />,
  },
  {
    key: 'date',
    header: 'Date',
    phone: 'none',
    className: 'whitespace-nowrap',
    cell: (order) => <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    phone: 'amount',
    className: 'whitespace-nowrap font-semibold text-slate-900',
    cell: (order) => formatMoney(order.amount),
  },
  {
    key: 'status',
    header: 'Status',
    phone: 'status',
    cell: (order) => <OrderStatusBadge status={order.status} />,
  },
  {
    key: 'actions',
    header: 'Next',
    align: 'right',
    phone: 'none',
    table: true,
    cell: (order) => <OrderActions order={order} />,
  },
  {
    key: 'phone-date',
    header: 'Date',
    phone: 'title',
    table: false,
    cell: (order) => (
      <p className="text-sm font-normal text-slate-600">
        Ordered <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
      </p>
    ),
  },
  {
    // On a phone the actions close the card, under its details, without a label of their own.
    key: 'phone-actions',
    header: '',
    phone: 'title',
    table: false,
    cell: (order) => (
      <div className="mt-2 flex flex-wrap gap-2">
        <OrderActions order={order} />
      </div>
    ),
  },
];

function CardCell({ order }: { order: OrderSummary }) {
  const { design } = order;
  return (
    <div className="flex min-w-0 items-start gap-3">
      <span
        aria-hidden="true"
        className="mt-0.5 h-8 w-12 shrink-0 rounded-md ring-1 ring-black/10"
        style={{ backgroundColor: design.colour }}
      />
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{design.businessName}</p>
        <p className="font-mono text-xs text-slate-600">{design.uniqueId}</p>
        {order.gift ? (
          <p className="mt-0.5 text-sm break-words text-violet-800">
            Gift for {order.gift.recipientName ?? order.gift.recipient}
          </p>
        ) : null}
        {order.failureReason ? (
          <p className="mt-1 max-w-md text-sm break-words text-red-800">{order.failureReason}</p>
        ) : null}
      </div>
    </div>
  );
}

function OrderActions({ order }: { order: OrderSummary }) {
  const what = `${order.design.businessName} ${formatMoney(order.amount)}`;
  switch (order.status) {
    case 'pending':
      return order.checkoutUrl ? (
        <a href={order.checkoutUrl} className={primaryAction} aria-label={`Continue to payment: ${what}`}>
          Continue to payment
        </a>
      ) : (
        <span className="text-sm text-slate-600">Waiting for the payment provider</span>
      );
    case 'failed':
    case 'cancelled':
      return (
        <Link
          to={`/user-dashboard/card/${order.design.giftCardId}`}
          className={primaryAction}
          aria-label={`Try again: buy the ${what} gift card`}
        >
          Try again
        </Link>
      );
    case 'paid':
    case 'refunded':
      return (
        <span className="inline-flex flex-wrap justify-end gap-2 xl:flex-nowrap">
          {order.purchasedCardId ? (
            <Link
              to={`/user-dashboard/mycards/${order.purchasedCardId}`}
              className={secondaryAction}
              aria-label={`View card: ${what}`}
            >
              View card
            </Link>
          ) : order.gift?.giftId ? (
            <Link
              to={`/gifts/${order.gift.giftId}`}
              className={secondaryAction}
              aria-label={`View gift: ${what}`}
            >
              View gift
            </Link>
          ) : null}
          <Link
            to={`/user-dashboard/orders/${order.id}/receipt`}
            className={secondaryAction}
            aria-label={`Receipt: ${what}`}
          >
            Receipt
          </Link>
        </span>
      );
  }
}
