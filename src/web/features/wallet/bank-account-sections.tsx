import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { maskAccountNumber } from '../../../shared/wallet/bank-accounts';
import { Button } from '../../components/ui/button';
import { askPin, confirmDanger, showError } from '../../components/ui/dialogs';
import { Icon, icons } from '../../components/ui/icon';
import { ApiError } from '../../lib/api';
import { walletQueryKey } from './api';
import {
  bankAccountKeys,
  listBankAccounts,
  makeDefaultBankAccount,
  removeBankAccount,
  type BankAccount,
} from './bank-accounts-api';

function Note({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-6 text-slate-600">
      <Icon path={icons.bank} className="h-5 w-5 shrink-0 text-slate-500" />
      <span>{children}</span>
    </p>
  );
}

function AccountDetails({ account }: { account: BankAccount }) {
  return (
    <div className="flex min-w-0 flex-1 items-center gap-4">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
        <Icon path={icons.bank} className="h-6 w-6" />
      </span>
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">{account.bankName}</p>
        <p className="text-sm text-slate-700 tabular-nums" title={account.accountNumber}>
          <span aria-hidden="true">{maskAccountNumber(account.accountNumber)}</span>
          <span className="sr-only">Account number ending {account.accountNumber.slice(-4)}</span>
        </p>
        <p className="truncate text-sm font-medium text-slate-800" title={account.accountName}>
          {account.accountName}
        </p>
      </div>
    </div>
  );
}

function useBankAccountActions() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: walletQueryKey }),
      queryClient.invalidateQueries({ queryKey: bankAccountKeys.all }),
    ]);
  const fail = (title: string) => (error: unknown) =>
    void showError(title, error instanceof ApiError ? error.message : 'Please try again.');
  const makeDefault = useMutation({
    mutationFn: ({ account, pin }: { account: BankAccount; pin: string }) =>
      makeDefaultBankAccount(account.id, pin),
    onSuccess: refresh,
    onError: fail('The default was not changed'),
  });
  const remove = useMutation({
    mutationFn: (account: BankAccount) => removeBankAccount(account.id),
    onSuccess: refresh,
    onError: async (error) => {
      fail('The bank account was not removed')(error);
      await refresh();
    },
  });
  async function confirmRemove(account: BankAccount) {
    const ok = await confirmDanger(
      `Remove this ${account.bankName} account?`,
      `${account.accountName}, account ending ${account.accountNumber.slice(-4)}.` +
        (account.isDefault
          ? ' It is your default: until you make another account the default, you will have none.'
          : ''),
      'Remove',
    );
    if (ok) remove.mutate(account);
  }
  // Where payouts go is protected like a withdrawal: the PIN first.
  async function confirmMakeDefault(account: BankAccount) {
    const pin = await askPin(
      `Make this ${account.bankName} account your default?`,
      `${account.accountName}, account ending ${account.accountNumber.slice(-4)}. Withdrawals will go here.`,
      'Make default',
    );
    if (pin) makeDefault.mutate({ account, pin });
  }
  const busyId = makeDefault.isPending
    ? makeDefault.variables.account.id
    : remove.isPending
      ? remove.variables.id
      : undefined;
  return { confirmMakeDefault, confirmRemove, busyId };
}

/**
 * The wallet's "Default Bank Account" and "Other Bank Accounts" sections. `onAdd` opens the
 * "Add New bank account" dialog.
 */
export function BankAccountSections({ onAdd }: { onAdd: () => void }) {
  const accounts = useQuery({
    queryKey: bankAccountKeys.all,
    queryFn: ({ signal }) => listBankAccounts(signal),
  });
  const { confirmMakeDefault, confirmRemove, busyId } = useBankAccountActions();
  const all = accounts.data ?? [];
  const defaultAccount = all.find((account) => account.isDefault);
  const others = all.filter((account) => !account.isDefault);

  let defaultBody: ReactNode;
  let othersBody: ReactNode;
  if (accounts.isPending) {
    defaultBody = othersBody = <Note>Loading bank accounts…</Note>;
  } else if (accounts.isError) {
    defaultBody = (
      <p
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-xl bg-red-50 px-5 py-4 text-red-800"
      >
        We couldn’t load your bank accounts.
        <Button variant="secondary" onClick={() => void accounts.refetch()}>
          Try again
        </Button>
      </p>
    );
    othersBody = null;
  } else {
    defaultBody = defaultAccount ? (
      <div className="flex flex-col gap-4 rounded-xl border border-brand-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center">
        <AccountDetails account={defaultAccount} />
        <div className="flex items-center gap-3">
          <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-bold tracking-wide text-emerald-900">
            DEFAULT
          </span>
          <Button
            variant="secondary"
            disabled={busyId === defaultAccount.id}
            aria-label={`Remove: ${defaultAccount.bankName} account ending ${defaultAccount.accountNumber.slice(-4)}`}
            onClick={() => void confirmRemove(defaultAccount)}
          >
            Remove
          </Button>
        </div>
      </div>
    ) : others.length > 0 ? (
      <Note>No default bank account. Choose one below with “Make default”.</Note>
    ) : (
      <Note>No bank account yet</Note>
    );
    othersBody =
      others.length === 0 ? (
        <Note>No other bank accounts</Note>
      ) : (
        <ul className="flex flex-col gap-3">
          {others.map((account) => {
            const ending = `${account.bankName} account ending ${account.accountNumber.slice(-4)}`;
            return (
              <li
                key={account.id}
                className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center"
              >
                <AccountDetails account={account} />
                <div className="flex flex-wrap items-center gap-3">
                  <Button
                    variant="secondary"
                    disabled={busyId === account.id}
                    aria-label={`Make default: ${ending}`}
                    onClick={() => void confirmMakeDefault(account)}
                  >
                    Make default
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busyId === account.id}
                    aria-label={`Remove: ${ending}`}
                    onClick={() => void confirmRemove(account)}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      );
  }

  return (
    <>
      <section aria-labelledby="default-bank" className="mt-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="default-bank" className="text-lg font-semibold text-slate-900">
            Default Bank Account
          </h2>
          <Button onClick={onAdd}>
            <Icon path={icons.bank} className="h-4 w-4" />
            Add New bank account
          </Button>
        </div>
        {defaultBody}
      </section>

      <section aria-labelledby="other-banks" className="mt-8">
        <h2 id="other-banks" className="mb-3 text-lg font-semibold text-slate-900">
          Other Bank Accounts
        </h2>
        {othersBody}
      </section>
    </>
  );
}
