import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { showSuccess } from '../../components/ui/dialogs';
import { walletQueryKey } from './api';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { getPinStatus, pinStatusQueryKey, type PinStatus } from './pin-api';
import { ChangePinForm, CreatePinForm } from './pin-forms';

/**
 * Account → Security's first row for a business: "Create Transaction PIN" until one exists, then "Change
 * Transaction PIN"; either opens its form in a modal dialog. Whether the dialog is open is the caller's
 * (the page keeps it in the URL, so Home's Pending link can open it).
 */
export function TransactionPinRow({
  icon,
  open,
  onOpen,
  onClose,
}: {
  icon: ReactNode;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: pinStatusQueryKey, queryFn: ({ signal }) => getPinStatus(signal) });
  const isSet = status.data?.set ?? false;
  const label = isSet ? 'Change Transaction PIN' : 'Create Transaction PIN';

  async function done(next: PinStatus, created: boolean) {
    queryClient.setQueryData(pinStatusQueryKey, next);
    onClose();
    await queryClient.invalidateQueries({ queryKey: walletQueryKey });
    await showSuccess(created ? 'Transaction PIN created' : 'Transaction PIN changed');
  }

  return (
    <>
      <button
        type="button"
        onClick={onOpen}
        aria-haspopup="dialog"
        className="flex w-full items-center gap-4 px-5 py-4 text-left transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
      >
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-700">
          {icon}
        </span>
        <span className="flex-1 font-medium text-slate-900">{label}</span>
        {status.data ? (
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-semibold ${
              status.data.lockedUntil || status.data.resetRequired
                ? 'bg-red-100 text-red-800'
                : isSet
                  ? 'bg-emerald-100 text-emerald-900'
                  : 'bg-amber-100 text-amber-900'
            }`}
          >
            {status.data.lockedUntil || status.data.resetRequired ? 'Locked' : isSet ? 'Set' : 'Not set'}
          </span>
        ) : null}
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="h-5 w-5 text-slate-400"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <path strokeLinecap="round" strokeLinejoin="round" d="M9 6l6 6-6 6" />
        </svg>
      </button>
      <ModalDialog
        open={open}
        onClose={onClose}
        title={status.data?.set ? 'Change transaction PIN' : 'Create transaction PIN'}
        description={
          status.data?.set
            ? 'Confirm it is you with your current PIN or your account password, then type the new PIN twice.'
            : 'Your 4-digit PIN confirms every withdrawal. Type it twice.'
        }
      >
        {status.isPending ? (
          <p className="text-sm text-slate-600">Loading…</p>
        ) : status.isError ? (
          <p role="alert" className="text-sm text-red-700">
            We could not check your PIN right now. Close this and try again.
          </p>
        ) : status.data.set ? (
          <ChangePinForm status={status.data} onDone={(s) => void done(s, false)} onCancel={onClose} />
        ) : (
          <CreatePinForm onDone={(s) => void done(s, true)} onCancel={onClose} />
        )}
      </ModalDialog>
    </>
  );
}
