import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { changePasswordSchema, messages } from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { showSuccess } from '../../components/ui/dialogs';
import { TextField } from '../../components/ui/form-field';
import { DialogActions, DialogError, ModalDialog } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { changePassword, sessionsQueryKey } from './api';

const schema = changePasswordSchema
  .safeExtend({ confirmPassword: z.string().min(1, messages.confirmRequired) })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.passwordsMismatch,
    path: ['confirmPassword'],
  });
type Values = z.infer<typeof schema>;
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

function ChangePasswordForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setFormError(null);
    try {
      await changePassword({ currentPassword, newPassword });
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError)) {
        setFormError('Something went wrong. Please try again.');
        return;
      }
      const fieldErrors = Object.entries(error.fieldErrors).filter(([field]) =>
        (FIELDS as readonly string[]).includes(field),
      );
      for (const [field, list] of fieldErrors) {
        form.setError(field as (typeof FIELDS)[number], { message: list[0] }, { shouldFocus: true });
      }
      if (fieldErrors.length === 0) setFormError(error.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <DialogError message={formError} />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...form.register('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, different from your current one."
        error={errors.newPassword?.message}
        {...form.register('newPassword')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...form.register('confirmPassword')}
      />
      <DialogActions className="mt-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Change password'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Account → Security: "Change Password", opening its form in a dialog. Other devices are signed out. */
export function ChangePasswordRow({ icon }: { icon: ReactNode }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();

  async function done() {
    setOpen(false);
    await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    await showSuccess('Password changed. Every other device was signed out.');
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        className="flex w-full items-center gap-4 px-5 py-4 text-left transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
      >
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-700">
          {icon}
        </span>
        <span className="flex-1 font-medium text-slate-900">Change Password</span>
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
        onClose={() => setOpen(false)}
        title="Change password"
        description="Confirm it is you with your current password. Every other device where you are signed in will be signed out."
      >
        <ChangePasswordForm onDone={() => void done()} onCancel={() => setOpen(false)} />
      </ModalDialog>
    </>
  );
}
