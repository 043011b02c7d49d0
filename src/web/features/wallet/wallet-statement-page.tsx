import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatMoney, type Money } from '../../../shared/money';
import type { StatementKind, StatementLine } from '../../../shared/wallet/statement';
import { buttonClass } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { DateRangeFields, rangeInOrder } from '../../components/ui/filter-fields';
import { icons } from '../../components/ui/icon';
import { LoadError, LoadMore } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ResponsiveTable, type Column } from '../../components/ui/responsive-table';
import { getWallet, walletQueryKey } from './api';
import { figuresKeys, getStatement, statementCsvHref } from './figures-api';
import { WalletNav } from './wallet-nav';

const dateTime = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short' });

const kindLabels: Record<StatementKind, string> = {
  sale: 'Sale',
  refund: 'Refund',
  withdrawal: 'Withdrawal',
  withdrawal_reversed: 'Withdrawal reversed',
  adjustment: 'Adjustment',
};

const kindStyles: Record<StatementKind, string> = {
  sale: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  refund: 'bg-red-100 text-red-800 ring-red-600/20',
  withdrawal: 'bg-slate-100 text-slate-800 ring-slate-500/20',
  withdrawal_reversed: 'bg-amber-100 text-amber-900 ring-amber-600/20',
  adjustment: 'bg-sky-100 text-sky-900 ring-sky-600/20',
};

/** "+₦5,000.00" in green for money in, "−₦1,200.00" in red for money out. */
function SignedAmount({ money }: { money: Money }) {
  if (money.amount > 0) return <span className="text-emerald-700">+{formatMoney(money)}</span>;
  if (money.amount < 0)
    return <span className="text-red-700">−{formatMoney({ ...money, amount: -money.amount })}</span>;
  return <span className="text-slate-700">{formatMoney(money)}</span>;
}

const columns: Column<StatementLine>[] = [
  {
    key: 'date',
    header: 'Date',
    cell: (line) => dateTime.format(new Date(line.createdAt)),
    className: 'whitespace-nowrap text-slate-700',
  },
  {
    key: 'kind',
    header: 'Kind',
    cell: (line) => (
      <span
        className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${kindStyles[line.kind]}`}
      >
        {kindLabels[line.kind]}
      </span>
    ),
    phone: 'status',
  },
  {
    key: 'description',
    header: 'Description',
    cell: (line) => (
      <>
        <span className="text-slate-900">{line.description}</span>
        {line.fee && line.fee.amount !== 0 ? (
          <span className="block text-xs text-slate-600">Platform fee {formatMoney(line.fee)} kept</span>
        ) : null}
      </>
    ),
    phone: 'title',
  },
  {
    key: 'amount',
    header: 'Amount',
    cell: (line) => <SignedAmount money={line.amount} />,
    align: 'right',
    phone: 'amount',
    className: 'whitespace-nowrap font-semibold',
  },
  {
    key: 'balanceAfter',
    header: 'Balance after',
    cell: (line) => formatMoney(line.balanceAfter),
    align: 'right',
    className: 'whitespace-nowrap text-slate-900',
  },
];

/**
 * /dashboard/wallet/statement — every movement of the wallet from the ledger, newest first: what it was,
 * the signed amount and the balance after it, so the newest line's balance is the balance the wallet shows.
 * A date filter, and the same days as CSV.
 */
export default function WalletStatementPage() {
  const [params, setParams] = useSearchParams();
  const applied = useMemo(
    () => ({ from: params.get('from') ?? undefined, to: params.get('to') ?? undefined }),
    [params],
  );
  const [range, setRange] = useState({ from: applied.from ?? '', to: applied.to ?? '' });
  const wallet = useQuery({ queryKey: walletQueryKey, queryFn: ({ signal }) => getWallet(signal) });
  const statement = useInfiniteQuery({
    queryKey: figuresKeys.statement(applied),
    queryFn: ({ pageParam, signal }) => getStatement(applied, pageParam, signal),
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
  if (statement.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading your statement…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-16 animate-pulse rounded-xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (statement.isError && !statement.isFetchNextPageError) {
    body = (
      <LoadError
        title="We couldn’t load your statement."
        message={statement.error.message}
        onRetry={() => statement.refetch()}
        retrying={statement.isFetching}
      />
    );
  } else {
    const items = statement.data.pages.flatMap((page) => page.items);
    body =
      items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={icons.wallet}
            title="No movements on these days"
            text="Pick other days, or clear the dates to see the whole statement."
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
            icon={icons.wallet}
            title="No money has moved yet"
            text="Each sale, refund and withdrawal appears here with the balance after it."
          />
        )
      ) : (
        <>
          <div className="rounded-2xl border border-slate-200 bg-white shadow-sm max-md:border-0 max-md:bg-transparent max-md:shadow-none">
            <ResponsiveTable
              label="Wallet statement, newest first"
              rows={items}
              rowKey={(line) => line.id}
              columns={columns}
            />
          </div>
          <LoadMore
            hasNextPage={statement.hasNextPage}
            isFetchingNextPage={statement.isFetchingNextPage}
            error={statement.isFetchNextPageError ? statement.error.message : null}
            fetchNextPage={statement.fetchNextPage}
            label="Load older movements"
          />
        </>
      );
  }

  return (
    <>
      <PageHeader title="Wallet">
        Every movement of your wallet, newest first, with the balance after it.
      </PageHeader>
      <WalletNav />
      <section
        aria-labelledby="balance-now"
        className="mb-6 flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-sm"
      >
        <h2 id="balance-now" className="text-sm font-semibold text-slate-700">
          Balance now
        </h2>
        <p className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="statement-balance">
          {wallet.isPending
            ? 'Loading…'
            : wallet.isError
              ? 'We couldn’t load your balance.'
              : formatMoney(wallet.data.balance)}
        </p>
        <p className="w-full text-sm text-slate-600">
          {applied.to
            ? 'With an end date chosen, the newest line shows the balance at the end of that day.'
            : 'The newest line’s “Balance after” is this balance: every line comes from the wallet’s ledger.'}
        </p>
      </section>
      <div
        role="group"
        aria-label="Filter the statement by date"
        className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-[repeat(2,minmax(0,12rem))_auto] md:items-end"
      >
        <DateRangeFields from={range.from} to={range.to} onChange={applyRange} />
        <div className="col-span-2 flex flex-wrap items-end gap-3 md:col-span-1">
          <a
            href={statementCsvHref(applied)}
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
