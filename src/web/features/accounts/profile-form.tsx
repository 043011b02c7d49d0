import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  emailChangeSchema,
  updateProfileSchema,
  type EmailChange,
  type EmailChangeInput,
  type UpdateProfile,
  type UpdateProfileInput,
} from '../../../shared/accounts/profile';
import type { Account } from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { DialogActions, DialogError, ModalDialog } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { setSignedIn } from '../../lib/store';
import { requestEmailChange, updateProfile } from './profile-api';

/** Server field errors on their fields; anything else as one message. */
function serverErrors(
  error: unknown,
  setField: (field: string, message: string) => boolean,
  setMessage: (message: string) => void,
) {
  if (!(error instanceof ApiError)) {
    setMessage('Something went wrong. Please try again.');
    return;
  }
  const placed = Object.entries(error.fieldErrors).filter(([field, messages]) =>
    setField(field, messages[0] ?? error.message),
  );
  if (placed.length === 0) setMessage(error.message);
}

/**
 * The account's editable profile: name, phone and (users) username with registration's rules, and the
 * e-mail address, which changes only once the new address is confirmed by mail.
 */
export function ProfileForm({ account }: { account: Account }) {
  const isUser = account.role === 'user';
  const [saved, setSaved] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const [emailNotice, setEmailNotice] = useState<string | null>(null);
  const form = useForm<UpdateProfileInput, unknown, UpdateProfile>({
    resolver: zodResolver(updateProfileSchema),
    defaultValues: {
      name: account.name,
      phoneNumber: account.phoneNumber,
      ...(isUser ? { username: account.username ?? '' } : {}),
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    try {
      const updated = await updateProfile(values);
      setSignedIn(updated);
      form.reset({
        name: updated.name,
        phoneNumber: updated.phoneNumber,
        ...(isUser ? { username: updated.username ?? '' } : {}),
      });
      setSaved(true);
    } catch (error) {
      serverErrors(
        error,
        (field, message) => {
          if (field !== 'name' && field !== 'phoneNumber' && field !== 'username') return false;
          form.setError(field, { message }, { shouldFocus: true });
          return true;
        },
        setFormError,
      );
    }
  });

  return (
    <section aria-labelledby="profile-form-title" className="mt-6 border-t border-slate-100 pt-6">
      <h3 id="profile-form-title" className="text-base font-semibold text-slate-900">
        Edit profile
      </h3>
      <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-4">
        <DialogError message={formError} />
        <TextField
          label={isUser ? 'Name' : 'Business name'}
          autoComplete={isUser ? 'name' : 'organization'}
          error={errors.name?.message}
          {...form.register('name', { onChange: () => setSaved(false) })}
        />
        {isUser ? (
          <TextField
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            error={errors.username?.message}
            {...form.register('username', { onChange: () => setSaved(false) })}
          />
        ) : null}
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          error={errors.phoneNumber?.message as string | undefined}
          {...form.register('phoneNumber', { onChange: () => setSaved(false) })}
        />
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium text-slate-700" id="profile-email-label">
            Email
          </span>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <span aria-labelledby="profile-email-label" className="break-all text-slate-900">
              {account.email}
            </span>
            <Button variant="secondary" onClick={() => setEmailOpen(true)}>
              Change e-mail
            </Button>
          </div>
          {emailNotice ? (
            <p role="status" className="rounded-lg bg-brand-50 px-3.5 py-2.5 text-sm text-brand-800">
              {emailNotice}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-end">
          {saved ? (
            <p role="status" className="text-sm font-medium text-green-700">
              Your profile was saved.
            </p>
          ) : null}
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </form>
      <ChangeEmailDialog
        open={emailOpen}
        onClose={() => setEmailOpen(false)}
        onSent={(message) => {
          setEmailOpen(false);
          setEmailNotice(message);
        }}
      />
    </section>
  );
}

function ChangeEmailDialog({
  open,
  onClose,
  onSent,
}: {
  open: boolean;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EmailChangeInput, unknown, EmailChange>({
    resolver: zodResolver(emailChangeSchema),
    defaultValues: { newEmail: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  function close() {
    form.reset();
    setFormError(null);
    onClose();
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await requestEmailChange(values);
      form.reset();
      onSent(answer.message);
    } catch (error) {
      serverErrors(
        error,
        (field, message) => {
          if (field !== 'newEmail' && field !== 'password') return false;
          form.setError(field, { message }, { shouldFocus: true });
          return true;
        },
        setFormError,
      );
    }
  });

  return (
    <ModalDialog
      open={open}
      onClose={close}
      title="Change your e-mail"
      description="We will mail a link to the new address. Your e-mail changes only when you open it."
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <DialogError message={formError} />
        <TextField
          label="New e-mail address"
          type="email"
          autoComplete="email"
          error={errors.newEmail?.message}
          {...form.register('newEmail')}
        />
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <DialogActions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Sending…' : 'Send the link'}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
