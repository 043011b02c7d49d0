import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Sale } from '../../../shared/cards/sales';
import { purchasedCardStatusSchema } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { buttonClass } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { DateRangeFields, rangeInOrder, SearchField, SelectField } from '../../components/ui/filter-fields';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ResponsiveTable, type Column } from '../../components/ui/responsive-table';
import { useGiftCardStore } from '../../lib/store';
import { listOwnCards } from '../catalogue/api';
import { formatDate, formatDateTime, shortMaskedCode, statusLabels } from './format';
import { listSales, salesCsvHref, salesKeys, type SalesFilters } from './sales-api';
import { SalesNav } from './sales-nav';
import { StatusBadge } from './status-badge';

const SEARCH_DELAY_MS = 300;
/** What the server's search accepts: letters, digits, spaces and dashes (see salesQuerySchema). */
const SEARCH_TEXT = /^[A-Za-z0-9\s-]*$/;

const columns: Column<Sale>[] = [
  {
    key: 'sold',
    header: 'Sold',
    // The order's reference under the time: the second thing the search box finds a sale by.
    cell: (sale) => (
      <>
        <span className="whitespace-nowrap">{formatDateTime(sale.soldAt)}</span>
        <span
          className="block max-w-[10rem] truncate font-mono text-xs text-slate-600"
          title={sale.orderReference}
        >
          {sale.orderReference}
        </span>
      </>
    ),
    className: 'text-slate-700',
    phone: 'none',
  },
  {
    key: 'card',
    header: 'Card',
    cell: (sale) => (
      <>
        <span className="font-mono font-semibold tracking-wide whitespace-nowrap text-slate-900">
          {shortMaskedCode(sale.codeLast4)}
        </span>
        <span className="block font-mono text-xs whitespace-nowrap text-slate-600">{sale.designName}</span>
      </>
    ),
    phone: 'none',
  },
  {
    key: 'title',
    header: 'Card',
    cell: (sale) => (
      <>
        <span className="font-mono font-semibold tracking-wide">{shortMaskedCode(sale.codeLast4)}</span>
        <span className="font-normal text-slate-600"> · {sale.designName}</span>
      </>
    ),
    phone: 'title',
    table: false,
  },
  {
    key: 'soldAt',
    header: 'Sold',
    cell: (sale) => formatDateTime(sale.soldAt),
    table: false,
  },
  { key: 'buyer', header: 'Buyer', cell: (sale) => sale.buyerName, className: 'max-w-[10rem] truncate' },
  {
    key: 'value',
    header: 'Value',
    cell: (sale) => formatMoney(sale.value),
    align: 'right',
    phone: 'amount',
    className: 'whitespace-nowrap font-semibold text-slate-900',
  },
  {
    key: 'balance',
    header: 'Balance',
    cell: (sale) => formatMoney(sale.balance),
    align: 'right',
    className: 'whitespace-nowrap',
  },
  { key: 'status', header: 'Status', cell: (sale) => <StatusBadge status={sale.status} />, phone: 'status' },
  {
    key: 'expires',
    header: 'Expires',
    cell: (sale) => (sale.expiresAt ? formatDate(sale.expiresAt) : 'Never'),
    className: 'whitespace-nowrap text-slate-700',
  },
  {
    key: 'reference',
    header: 'Reference',
    cell: (sale) => <span className="font-mono text-xs">{sale.orderReference}</span>,
    table: false,
  },
];

/**
 * /dashboard/sales — every card the business sold, newest first: filtered by days, design and status,
 * searched by the code's last four or the order's reference, paged with the server's cursor, exported as
 * CSV with the same filters. The filters live in the address, so a filtered view can be bookmarked or shared.
 */
export default function SalesPage() {
  const [params, setParams] = useSearchParams();
  const filters: SalesFilters = useMemo(
    () => ({
      from: params.get('from') ?? undefined,
      to: params.get('to') ?? undefined,
      giftCardId: params.get('giftCardId') ?? undefined,
      status: params.get('status') ?? undefined,
      q: params.get('q') ?? undefined,
    }),
    [params],
  );
  const [range, setRange] = useState({ from: filters.from ?? '', to: filters.to ?? '' });
  const [text, setText] = useState(filters.q ?? '');
  const business = useGiftCardStore((s) => s.bizClient);
  const businessId = business?.id ?? '';

  function setFilter(changes: Partial<SalesFilters>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }

  const typed = text.trim();
  const textError = SEARCH_TEXT.test(typed)
    ? null
    : 'Use only the letters, digits and dashes of a code or a reference.';
  // Search once the text could be a last four or a reference (four characters or more), or when cleared.
  useEffect(() => {
    if (textError || typed === (filters.q ?? '') || (typed.length > 0 && typed.length < 4)) return;
    const timer = setTimeout(() => setFilter({ q: typed }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // setFilter is rebuilt every render; what it does depends only on the text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed, textError, filters.q]);

  const designs = useQuery({
    queryKey: ['sales', 'designs', businessId],
    queryFn: () => listOwnCards(businessId, undefined, 'newest', 100),
    enabled: Boolean(businessId),
  });

  const sales = useInfiniteQuery({
    queryKey: salesKeys.list(filters),
    queryFn: ({ pageParam, signal }) => listSales(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

  const filtered = Object.values(filters).some(Boolean);

  let body;
  if (sales.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading your sales…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-16 animate-pulse rounded-xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (sales.isError && !sales.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your sales."
        message={sales.error.message}
        onRetry={() => sales.refetch()}
        retrying={sales.isFetching}
      />
    );
  } else {
    const items = sales.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={icons.cards}
            title="No sales match these filters"
            text="Try other days, another design or status, or clear the filters to see every sale."
          >
            <button type="button" className={buttonClass('secondary')} onClick={clearFilters}>
              Clear filters
            </button>
          </EmptyState>
        ) : (
          <EmptyState
            icon={icons.cards}
            title="No sales yet"
            text="Every card a customer buys appears here, newest first, with what is left on it."
          />
        )
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600" aria-live="polite">
            {items.length === 1 ? '1 sale' : `${items.length} sales`}
            {sales.hasNextPage ? ' shown, newest first; more below.' : ', newest first.'}
          </p>
          <div className="rounded-2xl border border-slate-200 bg-white shadow-sm max-md:border-0 max-md:bg-transparent max-md:shadow-none">
            <ResponsiveTable
              label="Your sales, newest first"
              rows={items}
              rowKey={(sale) => sale.id}
              columns={columns}
              rowLink={(sale) => ({
                to: `/dashboard/sold-cards/${sale.id}`,
                label: `Card ending ${sale.codeLast4}, sold ${formatDate(sale.soldAt)} for ${formatMoney(sale.value)}, balance ${formatMoney(sale.balance)}, ${statusLabels[sale.status]}`,
              })}
            />
          </div>
          <LoadMore
            hasNextPage={sales.hasNextPage}
            isFetchingNextPage={sales.isFetchingNextPage}
            error={sales.isFetchNextPageError ? sales.error.message : null}
            fetchNextPage={sales.fetchNextPage}
            label="Load more sales"
          />
        </>
      );
  }

  function clearFilters() {
    setRange({ from: '', to: '' });
    setText('');
    setParams({}, { replace: true });
  }

  return (
    <>
      <PageHeader title="Sales">
        Every card your customers bought: what it sold for, what is left on it and its status. Open one to
        block, unblock or refund it.
      </PageHeader>
      <SalesNav />
      <form
        role="search"
        aria-label="Filter sales"
        onSubmit={(event) => {
          event.preventDefault();
          if (!textError) setFilter({ q: typed });
        }}
        className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-[repeat(5,minmax(0,1fr))_auto] xl:items-end"
      >
        <DateRangeFields
          from={range.from}
          to={range.to}
          onChange={(next) => {
            setRange(next);
            if (rangeInOrder(next.from, next.to)) setFilter(next);
          }}
        />
        <SelectField
          label="Design"
          value={filters.giftCardId ?? ''}
          onChange={(giftCardId) => setFilter({ giftCardId })}
        >
          <option value="">All designs</option>
          {designs.data?.items.map((card) => (
            <option key={card.id} value={card.id}>
              {formatMoney(card.amount)} · {card.uniqueId}
            </option>
          ))}
          {filters.giftCardId &&
          designs.data &&
          !designs.data.items.some((c) => c.id === filters.giftCardId) ? (
            <option value={filters.giftCardId}>The chosen design</option>
          ) : null}
        </SelectField>
        <SelectField label="Status" value={filters.status ?? ''} onChange={(status) => setFilter({ status })}>
          <option value="">All statuses</option>
          {purchasedCardStatusSchema.options.map((status) => (
            <option key={status} value={status}>
              {statusLabels[status]}
            </option>
          ))}
        </SelectField>
        <div className="col-span-2 md:col-span-1">
          <SearchField
            label="Last four or reference"
            value={text}
            onChange={setText}
            placeholder="e.g. 7Q4K"
            error={textError}
          />
        </div>
        <div className="col-span-2 flex flex-wrap items-end gap-3 md:col-span-3 xl:col-span-1">
          {filtered ? (
            <button type="button" className={buttonClass('ghost', 'px-3')} onClick={clearFilters}>
              Clear filters
            </button>
          ) : null}
          <a
            href={salesCsvHref(filters)}
            download
            className={buttonClass('secondary', 'whitespace-nowrap')}
            aria-label={filtered ? 'Export CSV of the filtered sales' : 'Export CSV of all sales'}
          >
            Export CSV
          </a>
        </div>
      </form>
      {body}
    </>
  );
}
