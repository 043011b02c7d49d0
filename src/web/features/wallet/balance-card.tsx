import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatMoney } from '../../../shared/money';
import { Icon, icons } from '../../components/ui/icon';
import { getWallet, walletQueryKey } from './api';
import { WithdrawDialog } from './withdraw-dialog';

/**
 * "Available balance" (seed §2, §4): hidden as asterisks until the eye toggle shows it, and cached under
 * ['wallet']; the Withdraw button opens "Process Withdrawal".
 */
export function BalanceCard({ withdraw = true }: { withdraw?: boolean }) {
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  const [shown, setShown] = useState(false);
  const headingId = useId();
  const wallet = useQuery({
    queryKey: walletQueryKey,
    queryFn: ({ signal }) => getWallet(signal),
    enabled: shown,
  });

  let amount;
  if (!shown) {
    amount = (
      <>
        <span aria-hidden="true">****</span>
        <span className="sr-only">Hidden</span>
      </>
    );
  } else if (wallet.isPending) {
    amount = <span className="text-lg font-medium text-brand-100">Loading balance…</span>;
  } else if (wallet.isError) {
    amount = (
      <span className="flex flex-wrap items-center gap-3 text-base font-medium">
        <span>We couldn’t load your balance.</span>
        <button
          type="button"
          onClick={() => void wallet.refetch()}
          className="rounded-lg bg-white/15 px-3 py-1.5 text-sm font-semibold text-white hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          Try again
        </button>
      </span>
    );
  } else {
    amount = formatMoney(wallet.data.balance);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand-700 via-brand-600 to-violet-700 p-6 text-white shadow-md"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -right-10 -top-12 h-40 w-40 rounded-full bg-white/10"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -bottom-16 right-16 h-36 w-36 rounded-full bg-white/5"
      />
      <div className="relative flex items-center justify-between gap-3">
        <h2
          id={headingId}
          className="flex items-center gap-2 text-sm font-semibold tracking-wide text-brand-50"
        >
          <Icon path={icons.wallet} className="h-5 w-5" />
          Available balance
        </h2>
        <button
          type="button"
          aria-label={shown ? 'Hide balance' : 'Show balance'}
          aria-pressed={shown}
          title={shown ? 'Hide balance' : 'Show balance'}
          onClick={() => setShown((value) => !value)}
          className="flex h-10 w-10 items-center justify-center rounded-full bg-white/15 text-white transition hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          <Icon path={shown ? icons.eyeOff : icons.eye} className="h-5 w-5" />
        </button>
      </div>
      <p
        aria-live="polite"
        className="relative mt-4 min-h-10 text-3xl font-bold tracking-tight tabular-nums md:text-4xl"
      >
        {amount}
      </p>
      {withdraw ? (
        <div className="relative mt-6">
          <button
            type="button"
            onClick={() => setWithdrawOpen(true)}
            className="inline-flex items-center gap-2 rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-brand-700 shadow-sm transition hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <Icon path={icons.bank} className="h-4 w-4" />
            Withdraw
          </button>
          <WithdrawDialog open={withdrawOpen} onClose={() => setWithdrawOpen(false)} />
        </div>
      ) : null}
    </section>
  );
}
