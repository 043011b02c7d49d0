import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import {
  passwordMessages,
  passwordResetRequestSchema,
  type PasswordResetRequest,
  type PasswordResetRequestInput,
} from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { DialogError } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { requestPasswordReset } from './api';
import { AuthLayout } from './auth-layout';
import { BackToLogin, roleFrom } from './password-reset-links';

/**
 * /forgot-password?role=user|business — asks for the address and always answers the same words, whether
 * or not it has an account (the server answers the same too), so the page tells no one who is a customer.
 */
export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const role = roleFrom(params.get('role'));
  const [sent, setSent] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PasswordResetRequestInput, unknown, PasswordResetRequest>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await requestPasswordReset({ email: values.email, ...(role ? { role } : {}) });
      setSent(true);
    } catch (error) {
      setFormError(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');
    }
  });

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Type the e-mail address of your Giftmart account and we will mail you a link to choose a new password."
    >
      {sent ? (
        <div className="flex flex-col gap-5">
          <p
            role="status"
            className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900"
          >
            {passwordMessages.resetRequested}
          </p>
          <p className="text-sm text-slate-600">
            No mail after a few minutes? Check your spam folder, or{' '}
            <button
              type="button"
              onClick={() => setSent(false)}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              try again
            </button>
            .
          </p>
          <p className="text-sm">
            <BackToLogin role={role} />
          </p>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <DialogError message={formError} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" disabled={isSubmitting} className="w-full py-3">
            {isSubmitting ? 'Sending…' : 'Send reset link'}
          </Button>
          <p className="text-center text-sm text-slate-600">
            Remembered it? <BackToLogin role={role} label="Log in" />
          </p>
        </form>
      )}
    </AuthLayout>
  );
}
