import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  cardsWord,
  deleteAccountSchema,
  type DeleteAccount,
  type DeleteAccountInput,
} from '../../../shared/accounts/profile';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { showSuccess } from '../../components/ui/dialogs';
import { Checkbox, TextField } from '../../components/ui/form-field';
import { Icon, icons } from '../../components/ui/icon';
import { DialogActions, DialogError, ModalDialog } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { useGiftCardStore } from '../../lib/store';
import { deleteAccount, getDeletionStatus, profileKeys } from './profile-api';

/**
 * Account → Security's red "Delete My Account" row, for both roles. Its dialog first asks the server what
 * stands in the way (a business's wallet money, withdrawals on their way, sold cards still holding a balance;
 * a user's gifts on their way) and says so in words; a user holding cards sees their total and must tick
 * "Give up these cards". Then the password and the final red button.
 */
export function DeleteAccountRow() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        className="flex w-full items-center gap-4 px-5 py-4 text-left transition hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-red-600"
      >
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-700">
          <Icon path={icons.trash} />
        </span>
        <span className="flex-1 font-medium text-red-700">Delete My Account</span>
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="h-5 w-5 text-red-300"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <path strokeLinecap="round" strokeLinejoin="round" d="M9 6l6 6-6 6" />
        </svg>
      </button>
      <ModalDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete your account"
        description="Your name, e-mail, phone and sign-ins are erased and cannot be brought back. Records of money (sales, card history) are kept, without your name."
      >
        {open ? <DeleteAccountForm onCancel={() => setOpen(false)} /> : null}
      </ModalDialog>
    </>
  );
}

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: profileKeys.deletion,
    queryFn: getDeletionStatus,
    staleTime: 0,
    gcTime: 0,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<DeleteAccountInput, unknown, DeleteAccount>({
    resolver: zodResolver(deleteAccountSchema),
    defaultValues: { password: '', giveUpCards: false },
  });
  const { errors, isSubmitting } = form.formState;
  const giveUp = useWatch({ control: form.control, name: 'giveUpCards' });

  if (status.isPending) return <p className="text-sm text-slate-600">Checking your account…</p>;
  if (status.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        We could not check your account right now. Close this and try again.
      </p>
    );
  }
  const { blockers, cardsToGiveUp } = status.data;
  const total = formatMoney({ amount: cardsToGiveUp.total, currency: cardsToGiveUp.currency });
  const hasCards = cardsToGiveUp.count > 0;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await deleteAccount(values);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
        form.setError('password', { message: error.message }, { shouldFocus: true });
      } else {
        setFormError(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');
        if (error instanceof ApiError && error.status === 409) void status.refetch();
      }
      return;
    }
    useGiftCardStore.getState().reset();
    queryClient.clear();
    navigate('/', { replace: true });
    await showSuccess('Your account has been deleted. Thank you for using Giftmart.');
  });

  if (blockers.length > 0) {
    return (
      <div className="flex flex-col gap-4">
        <div
          role="alert"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900"
        >
          <p className="font-semibold">Your account cannot be deleted yet:</p>
          <ul className="mt-2 list-disc space-y-1.5 pl-5">
            {blockers.map((blocker) => (
              <li key={blocker.code}>{blocker.message}</li>
            ))}
          </ul>
        </div>
        <DialogActions>
          <Button variant="secondary" onClick={onCancel} data-autofocus>
            Close
          </Button>
        </DialogActions>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <DialogError message={formError} />
      {hasCards ? (
        <div className="rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900">
          <p>
            You still have {cardsWord(cardsToGiveUp.count)} worth <strong>{total}</strong>. Use them or send
            them first, or give them up: their balance goes to ₦0 and their codes stop working.
          </p>
          <div className="mt-3">
            <Checkbox
              label={`Give up these cards (${cardsWord(cardsToGiveUp.count)}, ${total})`}
              {...form.register('giveUpCards')}
            />
          </div>
        </div>
      ) : null}
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={isSubmitting || (hasCards && !giveUp)}>
          {isSubmitting ? 'Deleting…' : 'Delete my account for good'}
        </Button>
      </DialogActions>
    </form>
  );
}
