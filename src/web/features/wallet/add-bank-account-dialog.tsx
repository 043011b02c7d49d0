import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { checkBankAccount } from '../../../shared/wallet/bank-accounts';
import { findBank, NIGERIAN_BANKS } from '../../../shared/wallet/banks';
import { Button } from '../../components/ui/button';
import { flashSuccess } from '../../components/ui/dialogs';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { getWallet, walletQueryKey } from './api';
import {
  addBankAccount,
  bankAccountKeys,
  resolveBankAccount,
  type ResolvedBankAccount,
} from './bank-accounts-api';

interface Errors {
  bankCode?: string;
  accountNumber?: string;
  pin?: string;
  form?: string;
}

function errorsFrom(error: unknown, fallback: string): Errors {
  if (!(error instanceof ApiError)) return { form: fallback };
  const fields = error.fieldErrors;
  if (fields.bankCode?.[0]) return { bankCode: fields.bankCode[0] };
  if (fields.accountNumber?.[0]) return { accountNumber: fields.accountNumber[0] };
  if (fields.pin?.[0]) return { pin: fields.pin[0] };
  if (['PIN_INCORRECT', 'PIN_LOCKED', 'PIN_RESET_REQUIRED'].includes(error.code))
    return { pin: error.message };
  return { form: error.message };
}

/**
 * "Add New bank account": choose the bank, type the 10-digit NUBAN (its check digit is checked here before
 * any request), "Verify account" asks the bank for the name, and the business confirms it before saving.
 * A native modal <dialog>: focus stays inside and Escape closes it.
 */
export function AddBankAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const queryClient = useQueryClient();
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [resolved, setResolved] = useState<ResolvedBankAccount | null>(null);
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  // Saving needs the transaction PIN: a business without one is sent to create it first.
  const wallet = useQuery({
    queryKey: walletQueryKey,
    queryFn: ({ signal }) => getWallet(signal),
    enabled: open,
  });
  const noPin = wallet.data ? !wallet.data.pinSet : false;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const verify = useMutation({
    mutationFn: resolveBankAccount,
    onSuccess: (result) => {
      // Ignore an answer for details the business has changed since asking.
      if (result.bankCode === bankCode && result.accountNumber === accountNumber) setResolved(result);
    },
    onError: (error) => setErrors(errorsFrom(error, 'We could not check this account. Please try again.')),
  });

  const save = useMutation({
    mutationFn: addBankAccount,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: walletQueryKey }),
        queryClient.invalidateQueries({ queryKey: bankAccountKeys.all }),
      ]);
      reset();
      onClose();
      await flashSuccess('Bank account added');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'ACCOUNT_NAME_MISMATCH' && resolved) {
        const accountName = error.details?.accountName;
        if (typeof accountName === 'string') setResolved({ ...resolved, accountName });
      }
      setErrors(errorsFrom(error, 'The bank account could not be saved. Please try again.'));
    },
  });

  function reset() {
    setBankCode('');
    setAccountNumber('');
    setResolved(null);
    setPin('');
    setErrors({});
    verify.reset();
    save.reset();
  }

  function edited() {
    setResolved(null);
    setErrors({});
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (resolved) {
      if (!/^\d{4}$/.test(pin)) {
        setErrors({ pin: 'please enter your 4-digit transaction PIN' });
        return;
      }
      setErrors({});
      save.mutate({
        bankCode: resolved.bankCode,
        accountNumber: resolved.accountNumber,
        accountName: resolved.accountName,
        pin,
      });
      return;
    }
    if (!bankCode) {
      setErrors({ bankCode: 'Choose your bank.' });
      return;
    }
    if (!accountNumber) {
      setErrors({ accountNumber: 'Enter your 10-digit account number.' });
      return;
    }
    const check = checkBankAccount(bankCode, accountNumber);
    if (!check.ok) {
      setErrors({ [check.field]: check.message });
      return;
    }
    setErrors({});
    verify.mutate({ bankCode, accountNumber });
  }

  const bankName = findBank(bankCode)?.name;
  const busy = verify.isPending || save.isPending;

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={() => {
        reset();
        onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(28rem,calc(100vw-2rem))] overflow-y-auto rounded-2xl p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5 p-6">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-xl font-bold text-slate-900">
              Add New bank account
            </h2>
            <p id={descriptionId} className="mt-1 text-sm text-slate-600">
              Withdrawals are paid into this account. We check the name with your bank before saving.
            </p>
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={() => ref.current?.close()}
            className="-mr-2 -mt-1 flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-2xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>

        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${titleId}-bank`} className="text-sm font-medium text-slate-700">
            Bank
          </label>
          <select
            id={`${titleId}-bank`}
            value={bankCode}
            onChange={(event) => {
              setBankCode(event.target.value);
              edited();
            }}
            aria-invalid={errors.bankCode ? true : undefined}
            aria-describedby={errors.bankCode ? `${titleId}-bank-error` : undefined}
            className={`rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200 ${
              errors.bankCode ? 'border-red-500' : 'border-slate-300'
            }`}
          >
            <option value="">Choose your bank</option>
            {NIGERIAN_BANKS.map((bank) => (
              <option key={bank.code} value={bank.code}>
                {bank.name}
              </option>
            ))}
          </select>
          {errors.bankCode ? (
            <p id={`${titleId}-bank-error`} role="alert" className="text-sm text-red-700">
              {errors.bankCode}
            </p>
          ) : null}
        </div>

        <TextField
          label="Account number"
          name="accountNumber"
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          placeholder="10 digits"
          value={accountNumber}
          onChange={(event) => {
            setAccountNumber(event.target.value.replace(/\D/g, '').slice(0, 10));
            edited();
          }}
          error={errors.accountNumber}
          hint="Your 10-digit NUBAN account number"
        />

        {resolved ? (
          <div role="status" className="rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3">
            <p className="text-sm text-emerald-900">Is this your account?</p>
            <p className="mt-0.5 text-lg font-bold break-words text-slate-900">{resolved.accountName}</p>
            <p className="text-sm text-slate-700">
              {resolved.bankName} · {resolved.accountNumber}
            </p>
          </div>
        ) : null}

        {noPin ? (
          <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            Set your transaction PIN first:{' '}
            <Link
              className="font-semibold underline"
              to="/dashboard/account?tab=security&pin=create"
              onClick={() => ref.current?.close()}
            >
              create it in Account → Security
            </Link>
            .
          </p>
        ) : null}

        {resolved && !noPin ? (
          <TextField
            label="Transaction PIN"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={pin}
            onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
            error={errors.pin}
            hint="Where your withdrawals go is protected by your PIN."
          />
        ) : null}

        {errors.form ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {errors.form}
          </p>
        ) : null}

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => ref.current?.close()}>
            Cancel
          </Button>
          {resolved ? (
            <Button type="submit" disabled={busy || noPin}>
              {save.isPending ? 'Saving…' : 'Save bank account'}
            </Button>
          ) : (
            <Button type="submit" disabled={busy}>
              {verify.isPending ? `Checking with ${bankName ?? 'the bank'}…` : 'Verify account'}
            </Button>
          )}
        </div>
      </form>
    </dialog>
  );
}
