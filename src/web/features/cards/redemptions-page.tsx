import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { RedemptionRow } from '../../../shared/cards/sales';
import { formatMoney } from '../../../shared/money';
import { buttonClass } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { DateRangeFields, rangeInOrder } from '../../components/ui/filter-fields';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ResponsiveTable, type Column } from '../../components/ui/responsive-table';
import { formatDateTime, shortMaskedCode } from './format';
import { listRedemptions, redemptionsCsvHref, salesKeys, type DateRange } from './sales-api';
import { SalesNav } from './sales-nav';

function UseBadge({ row }: { row: RedemptionRow }) {
  return row.reversed ? (
    <span
      className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900 ring-1 ring-amber-600/20 ring-inset"
      title={row.reversedAt ? `Reversed ${formatDateTime(row.reversedAt)}` : undefined}
    >
      Reversed
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-emerald-800 ring-1 ring-emerald-600/20 ring-inset">
      Redeemed
    </span>
  );
}

const columns: Column<RedemptionRow>[] = [
  {
    key: 'time',
    header: 'Time',
    cell: (row) => formatDateTime(row.createdAt),
    className: 'whitespace-nowrap text-slate-700',
  },
  {
    key: 'card',
    header: 'Card',
    cell: (row) => (
      <>
        <span className="font-mono font-semibold tracking-wide whitespace-nowrap text-slate-900">
          {shortMaskedCode(row.codeLast4)}
        </span>
        <span className="block text-xs text-slate-600 md:max-w-[14rem] md:truncate">{row.designName}</span>
      </>
    ),
    phone: 'title',
  },
  {
    key: 'amount',
    header: 'Amount',
    // A reversed use gave the money back to the card: struck through, and said in words.
    cell: (row) =>
      row.reversed ? (
        <span className="text-slate-500 line-through">
          <span className="sr-only">Reversed: </span>
          {formatMoney(row.amount)}
        </span>
      ) : (
        formatMoney(row.amount)
      ),
    align: 'right',
    phone: 'amount',
    className: 'whitespace-nowrap font-semibold text-slate-900',
  },
  {
    key: 'balanceAfter',
    header: 'Balance after',
    cell: (row) => formatMoney(row.balanceAfter),
    align: 'right',
    className: 'whitespace-nowrap',
  },
  {
    key: 'reference',
    header: 'Reference',
    cell: (row) => row.reference ?? <span className="text-slate-500">None</span>,
    className: 'max-w-[14rem] truncate',
  },
  { key: 'status', header: 'Status', cell: (row) => <UseBadge row={row} />, phone: 'status' },
];

/**
 * /dashboard/sales/redemptions — the till's history: every use of a card, newest first, with the amount
 * taken, what the card had left, the till's reference and whether it was reversed; a date filter and the
 * same days as CSV. Each row opens its receipt.
 */
export default function RedemptionsPage() {
  const [params, setParams] = useSearchParams();
  const applied: DateRange = useMemo(
    () => ({ from: params.get('from') ?? undefined, to: params.get('to') ?? undefined }),
    [params],
  );
  const [range, setRange] = useState({ from: applied.from ?? '', to: applied.to ?? '' });

  const uses = useInfiniteQuery({
    queryKey: salesKeys.redemptions(applied),
    queryFn: ({ pageParam, signal }) => listRedemptions(applied, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const filtered = Boolean(applied.from || applied.to);

  function applyRange(next: { from: string; to: string }) {
    setRange(next);
    if (!rangeInOrder(next.from, next.to)) return;
    const search = new URLSearchParams();
    if (next.from) search.set('from', next.from);
    if (next.to) search.set('to', next.to);
    setParams(search, { replace: true });
  }

  let body;
  if (uses.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading your redemptions…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-16 animate-pulse rounded-xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (uses.isError && !uses.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your redemptions."
        message={uses.error.message}
        onRetry={() => uses.refetch()}
        retrying={uses.isFetching}
      />
    );
  } else {
    const items = uses.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={icons.scan}
            title="No redemptions on these days"
            text="Pick other days, or clear the dates to see every redemption."
          >
            <button
              type="button"
              className={buttonClass('secondary')}
              onClick={() => applyRange({ from: '', to: '' })}
            >
              Clear dates
            </button>
          </EmptyState>
        ) : (
          <EmptyState
            icon={icons.scan}
            title="No redemptions yet"
            text="Each time a customer pays with a card at your till, it appears here with what the card has left."
          />
        )
      ) : (
        <>
          <div className="rounded-2xl border border-slate-200 bg-white shadow-sm max-md:border-0 max-md:bg-transparent max-md:shadow-none">
            <ResponsiveTable
              label="Your redemptions, newest first"
              rows={items}
              rowKey={(row) => row.id}
              columns={columns}
              rowLink={(row) => ({
                to: `/dashboard/redeem/receipts/${row.id}`,
                label: `Receipt: ${formatMoney(row.amount)} from the card ending ${row.codeLast4}, ${formatDateTime(row.createdAt)}${row.reversed ? ', reversed' : ''}`,
              })}
            />
          </div>
          <LoadMore
            hasNextPage={uses.hasNextPage}
            isFetchingNextPage={uses.isFetchingNextPage}
            error={uses.isFetchNextPageError ? uses.error.message : null}
            fetchNextPage={uses.fetchNextPage}
            label="Load more redemptions"
          />
        </>
      );
  }

  return (
    <>
      <PageHeader title="Redemptions">
        Every time a card was spent at your till, newest first. Open one for its receipt.
      </PageHeader>
      <SalesNav />
      <div
        role="group"
        aria-label="Filter redemptions by date"
        className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-[repeat(2,minmax(0,12rem))_auto] md:items-end"
      >
        <DateRangeFields from={range.from} to={range.to} onChange={applyRange} />
        <div className="col-span-2 flex flex-wrap items-end gap-3 md:col-span-1">
          <a
            href={redemptionsCsvHref(applied)}
            download
            className={buttonClass('secondary', 'whitespace-nowrap')}
          >
            Export CSV
          </a>
        </div>
      </div>
      {body}
    </>
  );
}
