import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { loginSchema, messages, type Role } from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { flashSuccess, showError } from '../../components/ui/dialogs';
import { Checkbox, TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { nextQuery, safeNextPath } from '../../lib/next-path';
import { setSignedIn } from '../../lib/store';
import { logIn } from './api';

const REMEMBER_REQUIRED = 'please tick Remember me to continue';

/**
 * Seed §2 and §4: email (a user may type a username) and password, remember me (required for a business),
 * then the 1-second "Login successful" dialog and the dashboard. A failure opens the "Login failed" dialog.
 * Opened with a safe `?next=` (a gift's link), it goes back there instead, and so does its Sign up link.
 */
export function LoginForm({ role }: { role: Role }) {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const schema =
    role === 'business'
      ? loginSchema.and(z.object({ remember: z.literal(true, REMEMBER_REQUIRED) }))
      : loginSchema;
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', password: '', remember: false },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const session = await logIn({ ...values, role });
      // The seed's words; a gift's link takes the person back to the gift instead.
      await flashSuccess(
        next
          ? 'Login successful, Taking you back to where you were'
          : 'Login successful, Taking you to your dashboard',
      );
      // Storing the profile makes the public-area guard send the person on (replace): to `next` when
      // there is one, else to their dashboard.
      setSignedIn(session.account);
    } catch (error) {
      const text =
        error instanceof ApiError && error.code !== 'INVALID_CREDENTIALS'
          ? error.message
          : messages.credentialsWrong;
      await showError('Login failed', text);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
      <TextField
        label={role === 'user' ? 'Email or username' : 'Email'}
        type={role === 'user' ? 'text' : 'email'}
        autoComplete={role === 'user' ? 'username' : 'email'}
        placeholder={role === 'user' ? 'email or username' : 'you@yourbusiness.com'}
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        placeholder="Your password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <Checkbox
          label="Remember me"
          required={role === 'business'}
          error={(errors as { remember?: { message?: string } }).remember?.message}
          {...form.register('remember')}
        />
        <Link
          to={`/forgot-password?role=${role}`}
          className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          Forgot password?
        </Link>
      </div>
      <Button type="submit" disabled={isSubmitting} className="w-full py-3">
        {isSubmitting ? 'Logging in…' : 'Log in'}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Don&apos;t have an account?{' '}
        <Link
          to={`${role === 'business' ? '/business/register' : '/register'}${nextQuery(next)}`}
          className="font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          {role === 'business' ? 'Create one' : 'Sign up'}
        </Link>
      </p>
    </form>
  );
}
