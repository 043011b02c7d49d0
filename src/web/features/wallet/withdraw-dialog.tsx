import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatMoney, parseMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { showSuccess } from '../../components/ui/dialogs';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { getWallet, walletQueryKey } from './api';
import { listBankAccounts, requestWithdrawal, withdrawalKeys } from './withdrawals-api';

const MIN_WITHDRAWAL_MINOR = 100_000;

/**
 * Seed §2 "Process Withdrawal" (Withdraw funds from wallet): the available balance, the destination
 * account (default first), the amount, the transaction PIN, and "Process Payment". The server checks it
 * all again; each attempt carries one Idempotency-Key, kept if the network fails, so a retry cannot pay twice.
 */
export function WithdrawDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const queryClient = useQueryClient();
  const wallet = useQuery({
    queryKey: walletQueryKey,
    queryFn: ({ signal }) => getWallet(signal),
    enabled: open,
  });
  const banks = useQuery({ queryKey: withdrawalKeys.bankAccounts, queryFn: listBankAccounts, enabled: open });
  const [amountText, setAmountText] = useState('');
  const [pin, setPin] = useState('');
  const [bankAccountId, setBankAccountId] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; pin?: string; form?: string }>({});
  const attemptKey = useRef<string>(crypto.randomUUID());

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const currency = wallet.data?.balance.currency ?? 'NGN';
  const available = wallet.data?.balance.amount ?? 0;
  const accounts = banks.data ?? [];
  const chosen = bankAccountId || accounts.find((a) => a.isDefault)?.id || accounts[0]?.id || '';

  const withdraw = useMutation({
    mutationFn: (body: { amount: number; pin: string; bankAccountId?: string }) =>
      requestWithdrawal(body, attemptKey.current),
    onSuccess: async (result) => {
      attemptKey.current = crypto.randomUUID();
      setAmountText('');
      setPin('');
      await queryClient.invalidateQueries({ queryKey: walletQueryKey });
      await queryClient.invalidateQueries({ queryKey: withdrawalKeys.all });
      onClose();
      await showSuccess(`Withdrawal of ${formatMoney(result.amount)} requested`);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status < 500) attemptKey.current = crypto.randomUUID();
      if (error instanceof ApiError) {
        const target = error.code.startsWith('PIN')
          ? 'pin'
          : error.fieldErrors.pin
            ? 'pin'
            : error.fieldErrors.amount ||
                error.code === 'INSUFFICIENT_BALANCE' ||
                error.code === 'VALIDATION_FAILED'
              ? 'amount'
              : 'form';
        setErrors({ [target]: error.message });
      } else {
        setErrors({ form: 'The withdrawal could not be sent. Please try again.' });
      }
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const amount = parseMoney(amountText, currency);
    const next: typeof errors = {};
    if (amountText.trim() === '') next.amount = 'please enter an amount to withdraw';
    else if (amount === null) next.amount = 'enter an amount like 5000 or 5000.50 (at most 2 decimal places)';
    else if (amount <= 0) next.amount = 'the amount must be more than 0';
    else if (amount < MIN_WITHDRAWAL_MINOR)
      next.amount = `The smallest withdrawal is ${formatMoney({ amount: MIN_WITHDRAWAL_MINOR, currency })}.`;
    else if (amount > available)
      next.amount = `insufficient balance: you can withdraw at most ${formatMoney({ amount: available, currency })}.`;
    if (!/^\d{4}$/.test(pin)) next.pin = 'please enter your 4-digit transaction PIN';
    setErrors(next);
    if (Object.keys(next).length > 0 || amount === null) return;
    withdraw.mutate({ amount, pin, bankAccountId: chosen || undefined });
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      {/* Rendered only while open: a closed dialog must not put the hidden balance in the page. */}
      {open ? (
        <form onSubmit={submit} noValidate className="flex flex-col gap-5 p-6">
          <div>
            <h2 id={titleId} className="text-xl font-bold text-slate-900">
              Process Withdrawal
            </h2>
            <p className="text-sm text-slate-600">Withdraw funds from wallet</p>
          </div>
          <div className="rounded-xl bg-brand-50 px-4 py-3">
            <p className="text-sm text-slate-700">Available balance</p>
            <p className="text-2xl font-bold text-slate-900 tabular-nums">
              {wallet.isPending ? 'Loading…' : formatMoney({ amount: available, currency })}
            </p>
          </div>
          {wallet.data && !wallet.data.pinSet ? (
            <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              Set your transaction PIN first:{' '}
              <Link
                className="font-semibold underline"
                to="/dashboard/account?tab=security&pin=create"
                onClick={onClose}
              >
                create it in Account → Security
              </Link>
              .
            </p>
          ) : null}
          {banks.isSuccess && accounts.length === 0 ? (
            <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              Add a bank account first:{' '}
              <Link className="font-semibold underline" to="/dashboard/wallet?add-bank=1" onClick={onClose}>
                Add New bank account
              </Link>
              .
            </p>
          ) : (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${titleId}-bank`} className="text-sm font-medium text-slate-700">
                Pay into
              </label>
              <select
                id={`${titleId}-bank`}
                value={chosen}
                onChange={(event) => setBankAccountId(event.target.value)}
                className="rounded-lg border border-slate-300 px-3 py-2.5 text-base"
              >
                {accounts.map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.bankName} •• {account.accountNumber.slice(-4)} — {account.accountName}
                    {account.isDefault ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          <TextField
            label="Amount"
            inputMode="decimal"
            placeholder="e.g. 5000"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            hint={`At least ${formatMoney({ amount: MIN_WITHDRAWAL_MINOR, currency })}.`}
            error={errors.amount}
          />
          <TextField
            label="Transaction PIN"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={pin}
            onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
            error={errors.pin}
          />
          {errors.form ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.form}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={withdraw.isPending}>
              {withdraw.isPending ? 'Processing…' : 'Process Payment'}
            </Button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
