import { useInfiniteQuery } from '@tanstack/react-query';
import { formatMoney } from '../../../shared/money';
import type { Withdrawal } from '../../../shared/wallet/schemas';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { ResponsiveTable } from '../../components/ui/responsive-table';
import { useGiftCardStore } from '../../lib/store';
import { listWithdrawals, withdrawalKeys } from './withdrawals-api';

const STATUS_STYLE: Record<Withdrawal['status'], string> = {
  requested: 'bg-slate-100 text-slate-800',
  processing: 'bg-amber-100 text-amber-900',
  paid: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-800',
};

const dateTime = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Seed §2 "Withdrawal History": S/N, Logo, Company Name, Date and Time, Amount — real rows, newest first —
 * plus the bank and the status, which refreshes while a payout is under way. A table from 768 px; on a phone
 * each withdrawal is a card with its amount and status first.
 */
export function WithdrawalHistory() {
  const business = useGiftCardStore((s) => s.bizClient);
  const history = useInfiniteQuery({
    queryKey: withdrawalKeys.all,
    queryFn: ({ pageParam }) => listWithdrawals(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) =>
        p.items.some((w) => w.status === 'requested' || w.status === 'processing'),
      )
        ? 1500
        : false,
  });
  const rows = history.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section
      aria-labelledby="withdrawal-history"
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <h2 id="withdrawal-history" className="px-5 pt-5 text-lg font-semibold text-slate-900">
        Withdrawal History
      </h2>
      {history.isPending ? (
        <p role="status" className="px-5 py-8 text-slate-600">
          Loading your withdrawals…
        </p>
      ) : history.isError ? (
        <div role="alert" className="px-5 py-6 text-red-800">
          We couldn’t load your withdrawals.{' '}
          <Button variant="secondary" onClick={() => history.refetch()}>
            Try again
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="px-5 py-8 text-slate-600">
          No withdrawals yet. When you withdraw, each one appears here with its status.
        </p>
      ) : (
        <div className="mt-3 px-4 pb-4 md:px-0 md:pb-0">
          <ResponsiveTable
            label="Your withdrawals, newest first"
            rows={rows}
            rowKey={(w) => w.id}
            columns={[
              {
                key: 'sn',
                header: 'S/N',
                cell: (_w, index) => index + 1,
                className: 'tabular-nums text-slate-700',
                phone: 'none',
              },
              {
                key: 'logo',
                header: 'Logo',
                cell: () => (
                  <Avatar
                    name={business?.name ?? ''}
                    src={business?.logoUrl}
                    decorative
                    className="h-8 w-8 text-sm"
                  />
                ),
                phone: 'none',
              },
              {
                key: 'company',
                header: 'Company Name',
                cell: () => <span className="font-medium text-slate-900">{business?.name}</span>,
              },
              {
                key: 'date',
                header: 'Date and Time',
                cell: (w) => dateTime.format(new Date(w.createdAt)),
                className: 'text-slate-700',
              },
              {
                key: 'bank',
                header: 'Bank account',
                cell: (w) => `${w.bankAccount.bankName} •• ${w.bankAccount.accountNumber.slice(-4)}`,
                className: 'text-slate-700',
              },
              {
                key: 'amount',
                header: 'Amount',
                cell: (w) => <span className="font-semibold text-slate-900">{formatMoney(w.amount)}</span>,
                align: 'right',
                phone: 'amount',
                className: 'whitespace-nowrap',
              },
              {
                key: 'status',
                header: 'Status',
                cell: (w) => (
                  <>
                    <span
                      className={`rounded-full px-2.5 py-1 text-xs font-bold capitalize ${STATUS_STYLE[w.status]}`}
                      title={w.failureReason ?? undefined}
                    >
                      {w.status}
                    </span>
                    {w.failureReason ? (
                      <p className="mt-1 max-w-[11rem] text-xs text-red-700">{w.failureReason}</p>
                    ) : null}
                  </>
                ),
                phone: 'status',
              },
            ]}
          />
        </div>
      )}
      {history.hasNextPage ? (
        <div className="flex justify-center p-4">
          <Button
            variant="secondary"
            onClick={() => history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
          >
            {history.isFetchingNextPage ? 'Loading…' : 'Show older withdrawals'}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
