import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  messages,
  passwordMessages,
  passwordResetConfirmSchema,
  type Role,
} from '../../../shared/accounts/schemas';
import { ButtonLink, Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { DialogError } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { useGiftCardStore } from '../../lib/store';
import { confirmPasswordReset } from './api';
import { AuthLayout } from './auth-layout';
import { loginPath, roleFrom } from './password-reset-links';

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;
const STORAGE_KEY = 'giftmart:password-reset';

interface ResetLink {
  token: string;
  role: Role | null;
}

/**
 * The mailed link's token and role, from the fragment (`#token=…&role=…`, which never reaches a server),
 * or from this tab's storage once the fragment was taken out of the address bar.
 */
function readLink(hash: string): ResetLink | null {
  const fromHash = new URLSearchParams(hash.replace(/^#/, ''));
  const token = fromHash.get('token');
  if (token && TOKEN.test(token)) return { token, role: roleFrom(fromHash.get('role')) };
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as ResetLink | null;
    return kept && TOKEN.test(kept.token) ? { token: kept.token, role: roleFrom(kept.role) } : null;
  } catch {
    return null;
  }
}

function forgetLink() {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable; nothing was kept then.
  }
}

const schema = z
  .object({
    newPassword: passwordResetConfirmSchema.shape.newPassword,
    confirmPassword: z.string().min(1, messages.confirmRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.passwordsMismatch,
    path: ['confirmPassword'],
  });
type Values = z.infer<typeof schema>;

/** /reset-password#token=… — choose a new password with a mailed link; then log in with it. */
export default function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [link] = useState(() => readLink(location.hash));
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(link ? 'form' : 'invalid');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // Keep the token for this tab and take it out of the address bar (screenshots, shared screens).
  useEffect(() => {
    if (!link || !location.hash) return;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(link));
    } catch {
      // Without storage the link still works on this visit.
    }
    navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [link, location.hash, location.pathname, location.search, navigate]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!link) return;
    setFormError(null);
    try {
      await confirmPasswordReset({ token: link.token, newPassword: values.newPassword });
      forgetLink();
      // Every session ended with the reset: forget the profile that picked a dashboard in this browser.
      useGiftCardStore.getState().reset();
      setState('done');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'RESET_LINK_INVALID') {
        forgetLink();
        setState('invalid');
      } else if (error instanceof ApiError && error.fieldErrors.newPassword) {
        form.setError('newPassword', { message: error.fieldErrors.newPassword[0] }, { shouldFocus: true });
      } else {
        setFormError(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');
      }
    }
  });

  const role = link?.role ?? null;
  const askAgain = `/forgot-password${role ? `?role=${role}` : ''}`;

  if (state === 'done') {
    return (
      <AuthLayout title="Password changed" subtitle="Every device was signed out.">
        <div className="flex flex-col gap-5">
          <p
            role="status"
            className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900"
          >
            Your password was changed. Log in with the new one.
          </p>
          {role ? (
            <ButtonLink to={loginPath(role)} className="w-full py-3">
              Log in
            </ButtonLink>
          ) : (
            <div className="flex flex-col gap-3 sm:flex-row">
              <ButtonLink to="/login" className="flex-1 py-3">
                Log in as a user
              </ButtonLink>
              <ButtonLink to="/business/login" variant="secondary" className="flex-1 py-3">
                Log in as a business
              </ButtonLink>
            </div>
          )}
        </div>
      </AuthLayout>
    );
  }

  if (state === 'invalid') {
    return (
      <AuthLayout title="Reset your password" subtitle="This link cannot be used.">
        <div className="flex flex-col gap-5">
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            {passwordMessages.resetLinkInvalid}
          </p>
          <ButtonLink to={askAgain} className="w-full py-3">
            Ask for a new link
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="At least 8 characters. Saving it signs out every device where your account is open."
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <DialogError message={formError} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
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
        <Button type="submit" disabled={isSubmitting} className="w-full py-3">
          {isSubmitting ? 'Saving…' : 'Save new password'}
        </Button>
        <p className="text-center text-sm text-slate-600">
          Link not working?{' '}
          <Link to={askAgain} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Ask for a new one
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
